import Foundation
import JarvisCore
import JarvisInspector
import Testing

@testable import JarvisWeb

/// The page and its server share one contract: the intents the page's scripts send are
/// exactly ``WebIntent/Name``'s cases, and the fields they read of what the server sends are
/// exactly the coding keys of the view types (no field sent that the page never reads, none
/// read that is never sent). The scripts are those the server serves, found from the page's
/// `<script>` through their imports.
@Suite struct WebContractTests {
    /// A view type: its coding keys, and the type of each field that holds another view type
    /// (`[Type]`: an array of them).
    struct Shape {
        var keys: [String]
        var children: [String: String] = [:]
    }

    /// Every type the server sends, by name.
    static let shapes: [String: Shape] = [
        "WebView": Shape(
            keys: keys(WebView.CodingKeys.self),
            children: [
                "agents": "[WebAgentChoice]", "chips": "[WebChip]", "table": "WebTableInfo", "sort": "WebSort",
                "message": "WebMessage", "timeline": "WebTimeline",
                "agent": "WebAgentInfo", "connection": "WebConnection", "scanners": "[WebScanner]", "scope": "WebScope",
                "detail": "WebDetail", "draft": "WebDraft", "conflict": "WebConflict", "bulk": "WebBulk",
                "add": "WebAdd", "fleet": "WebFleet", "comparison": "WebComparison", "compareOffer": "WebCompareOffer",
            ]),
        "WebFleet": Shape(
            keys: keys(WebFleet.CodingKeys.self), children: ["lines": "[WebFleetLine]", "results": "[WebFleetLine]"]),
        "WebFleetLine": Shape(keys: keys(WebFleetLine.CodingKeys.self)),
        "WebComparison": Shape(
            keys: keys(WebComparison.CodingKeys.self),
            children: ["differences": "[WebDifference]", "applied": "WebMessage"]),
        "WebDifference": Shape(keys: keys(WebDifference.CodingKeys.self)),
        "WebCompareOffer": Shape(keys: keys(WebCompareOffer.CodingKeys.self)),
        "WebAgentChoice": Shape(keys: keys(WebAgentChoice.CodingKeys.self)),
        "WebChip": Shape(keys: keys(WebChip.CodingKeys.self)),
        "WebSort": Shape(keys: keys(WebSort.CodingKeys.self)),
        "WebTimeline": Shape(keys: keys(WebTimeline.CodingKeys.self), children: ["entries": "[WebTimelineEntry]"]),
        "WebTimelineEntry": Shape(keys: keys(WebTimelineEntry.CodingKeys.self)),
        "WebTableInfo": Shape(keys: keys(WebTableInfo.CodingKeys.self), children: ["patches": "[WebTablePatch]"]),
        "WebTablePatch": Shape(keys: keys(WebTablePatch.CodingKeys.self), children: ["row": "WebRow"]),
        "WebMessage": Shape(keys: keys(WebMessage.CodingKeys.self)),
        "WebAgentInfo": Shape(keys: keys(WebAgentInfo.CodingKeys.self)),
        "WebConnection": Shape(keys: keys(WebConnection.CodingKeys.self)),
        "WebScanner": Shape(keys: keys(WebScanner.CodingKeys.self), children: ["containers": "[WebContainer]"]),
        "WebContainer": Shape(keys: keys(WebContainer.CodingKeys.self)),
        "WebScope": Shape(keys: keys(WebScope.CodingKeys.self)),
        "WebTarget": Shape(keys: keys(WebTarget.CodingKeys.self)),
        "WebRow": Shape(keys: keys(WebRow.CodingKeys.self), children: ["target": "WebTarget"]),
        "WebDetail": Shape(
            keys: keys(WebDetail.CodingKeys.self),
            children: ["row": "WebRow", "facts": "[WebFact]", "actions": "WebActions", "copy": "WebCopy"]),
        "WebFact": Shape(keys: keys(WebFact.CodingKeys.self)),
        "WebActions": Shape(keys: keys(WebActions.CodingKeys.self), children: ["quickEdit": "WebQuickEdit"]),
        "WebQuickEdit": Shape(keys: keys(WebQuickEdit.CodingKeys.self)),
        "WebCopy": Shape(keys: keys(WebCopy.CodingKeys.self)),
        "WebDraft": Shape(
            keys: keys(WebDraft.CodingKeys.self), children: ["problem": "WebProblem", "date": "WebDateField"]),
        "WebProblem": Shape(keys: keys(WebProblem.CodingKeys.self)),
        "WebDateField": Shape(keys: keys(WebDateField.CodingKeys.self)),
        "WebConflict": Shape(keys: keys(WebConflict.CodingKeys.self), children: ["labels": "WebConflictLabels"]),
        "WebConflictLabels": Shape(keys: keys(WebConflictLabels.CodingKeys.self)),
        "WebBulk": Shape(keys: keys(WebBulk.CodingKeys.self)),
        "WebAdd": Shape(
            keys: keys(WebAdd.CodingKeys.self),
            children: ["containers": "[WebAddContainer]", "suggestions": "[WebSuggestion]"]),
        "WebAddContainer": Shape(keys: keys(WebAddContainer.CodingKeys.self)),
        "WebSuggestion": Shape(keys: keys(WebSuggestion.CodingKeys.self)),
        "WebRowsWindow": Shape(keys: keys(WebRowsWindow.CodingKeys.self), children: ["rows": "[WebRow]"]),
        "WebMembers": Shape(keys: keys(WebMembers.CodingKeys.self), children: ["members": "[WebRow]"]),
        "WebOpened": Shape(keys: keys(WebOpened.CodingKeys.self), children: ["view": "WebView"]),
        "WebStreamEvent": Shape(keys: keys(WebStreamEvent.CodingKeys.self), children: ["view": "WebView"]),
        "WebClosedEvent": Shape(keys: keys(WebClosedEvent.CodingKeys.self)),
        "WebFailure": Shape(keys: keys(WebFailure.CodingKeys.self)),
    ]

    /// The names the page's scripts give what the server sent, and the types they hold. A
    /// name stands for its type wherever it starts a read (`detail.actions.edit`) or is a
    /// field along one (`view.detail.actions`, where `detail` is the field's own type).
    static let names: [String: [String]] = [
        "view": ["WebView"], "table": ["WebTableInfo"], "patch": ["WebTablePatch"], "chip": ["WebChip"],
        "agent": ["WebAgentInfo", "WebAgentChoice"], "connection": ["WebConnection"], "scanner": ["WebScanner"],
        "container": ["WebContainer"], "scope": ["WebScope"], "row": ["WebRow"], "detail": ["WebDetail"],
        "fact": ["WebFact"], "actions": ["WebActions"], "quick": ["WebQuickEdit"], "copy": ["WebCopy"],
        "draft": ["WebDraft"], "found": ["WebProblem"], "conflict": ["WebConflict"], "labels": ["WebConflictLabels"],
        "bulk": ["WebBulk"], "add": ["WebAdd"], "entry": ["WebAddContainer", "WebSuggestion", "WebTimelineEntry"],
        "sort": ["WebSort"], "timeline": ["WebTimeline"],
        "suggestion": ["WebSuggestion"], "answer": ["WebRowsWindow", "WebMembers"], "opened": ["WebOpened"],
        "sent": ["WebStreamEvent"], "closed": ["WebClosedEvent"], "failure": ["WebFailure"],
        "fleet": ["WebFleet"], "fleetLine": ["WebFleetLine"], "comparison": ["WebComparison"],
        "difference": ["WebDifference"], "compareOffer": ["WebCompareOffer"],
    ]

    /// Types the page sends back whole, as they came: their fields are the server's to read
    /// (``WebIntent/target(from:)``), and the page need not read every one.
    static let echoed: Set<String> = ["WebTarget"]

    static func keys<Key: CodingKey & CaseIterable>(_ type: Key.Type) -> [String] { Key.allCases.map(\.stringValue) }

    /// The page's scripts as served: the one `index.html` loads, and every script imported
    /// from one, without comments and strings' contents other than names.
    static func scripts() throws -> [String: String] {
        let index = String(decoding: try #require(WebAssets.file(named: "index.html")).bytes, as: UTF8.self)
        var pending = matches(#"<script[^>]*src="([^"]+\.js)""#, in: index)
        var found: [String: String] = [:]
        while let name = pending.popLast() {
            guard found[name] == nil else { continue }
            let file = try #require(
                WebAssets.file(named: name), "the page loads \(name), which the server does not serve")
            let text = String(decoding: file.bytes, as: UTF8.self)
            found[name] = text
            pending += matches(#"from '\./([^']+\.js)'"#, in: text)
        }
        return found
    }

    static func matches(_ pattern: String, in text: String, group: Int = 1) -> [String] {
        guard let expression = try? NSRegularExpression(pattern: pattern) else { return [] }
        let range = NSRange(text.startIndex..., in: text)
        return expression.matches(in: text, range: range).compactMap { match in
            Range(match.range(at: group), in: text).map { String(text[$0]) }
        }
    }

    /// Drops `//` comments (a line's rest after ` // ` or at its start), which speak of fields
    /// in words, and with `strings` the text inside quotes (`'./table.js'`).
    static func code(_ script: String, strings: Bool = false) -> String {
        let lines = script.split(separator: "\n", omittingEmptySubsequences: false).map { line -> Substring in
            if line.trimmingCharacters(in: .whitespaces).hasPrefix("//") { return "" }
            if let comment = line.range(of: " // ") { return line[..<comment.lowerBound] }
            return line
        }.joined(separator: "\n")
        guard strings else { return lines }
        return lines.replacing(/'[^'\n]*'/, with: "''").replacing(/"[^"\n]*"/, with: "\"\"")
    }

    /// Every read of a field the server sent, as `Type.field`, and every read of a field that
    /// no type on its way has, as a problem.
    static func reads(in script: String) -> (fields: Set<String>, unknown: [String]) {
        let alternatives = names.keys.sorted().joined(separator: "|")
        // A name not itself a field (`this.table`) starts a chain of `.field`, `?.field` or `[…]`.
        let pattern = #"(?<![\w$.])("# + alternatives + #")((?:\??\.[A-Za-z_$][\w$]*|\??\.?\[[^\[\]]*\])+)"#
        var fields: Set<String> = []
        var unknown: [String] = []
        guard let expression = try? NSRegularExpression(pattern: pattern) else { return ([], ["bad pattern"]) }
        let text = code(script, strings: true)
        for match in expression.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
            guard let rootRange = Range(match.range(at: 1), in: text),
                let chainRange = Range(match.range(at: 2), in: text)
            else { continue }
            var types = names[String(text[rootRange])] ?? []
            var array = false
            // `.field` steps and `[]` for an element, in order.
            for step in matches(
                #"\.([A-Za-z_$][\w$]*)|(\[)"#, in: String(text[chainRange].replacing(/\[[^\[\]]*\]/, with: "[]")),
                group: 0)
            {
                if step == "[" {
                    guard array else { break }
                    array = false
                    continue
                }
                // An array's own members (`rows.length`, `chips.some`) are the script's, not the contract's.
                if array { break }
                let field = String(step.dropFirst())
                let holders = types.filter { shapes[$0]?.keys.contains(field) ?? false }
                guard !holders.isEmpty else {
                    unknown.append("\(text[rootRange])\(text[chainRange]): \(types) has no \(field)")
                    break
                }
                for holder in holders { fields.insert(holder + "." + field) }
                // A field holding no view type is a string, a number or a list of them.
                let children = holders.compactMap { shapes[$0]?.children[field] }
                array = children.contains { $0.hasPrefix("[") }
                types = children.map { $0.trimmingCharacters(in: CharacterSet(charactersIn: "[]")) }
                if types.isEmpty { break }
            }
        }
        return (fields, unknown)
    }

    @Test func everyFieldThePageReadsIsSentAndEveryFieldSentIsRead() throws {
        var read: Set<String> = []
        var unknown: [String] = []
        for (name, script) in try Self.scripts() {
            let found = Self.reads(in: script)
            read.formUnion(found.fields)
            unknown += found.unknown.map { "\(name): \($0)" }
        }
        #expect(unknown.isEmpty, "the page reads fields the server never sends:\n\(unknown.joined(separator: "\n"))")
        let sent = Set(
            Self.shapes.filter { !Self.echoed.contains($0.key) }.flatMap { type, shape in
                shape.keys.map { type + "." + $0 }
            })
        let unread = sent.subtracting(read).sorted()
        #expect(unread.isEmpty, "the server sends fields the page never reads: \(unread)")
    }

    @Test func everyShapeNamesItsTypesCodingKeysAndItsChildrenExist() {
        for (type, shape) in Self.shapes {
            for (field, child) in shape.children {
                #expect(shape.keys.contains(field), "\(type) has no field \(field)")
                let element = child.trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
                #expect(Self.shapes[element] != nil, "\(type).\(field) names an unknown type \(child)")
            }
        }
        for (name, types) in Self.names {
            for type in types { #expect(Self.shapes[type] != nil, "\(name) stands for an unknown type \(type)") }
        }
    }

    /// The intents the page sends: `send('name'`, `intent('name'`, `intent === 'name'`.
    static func intents(in script: String) -> Set<String> {
        let text = code(script)
        return Set(
            matches(#"(?:send|intent)\(\s*'([A-Za-z]+)'"#, in: text)
                + matches(#"intent\s*[!=]==\s*'([A-Za-z]+)'"#, in: text))
    }

    @Test func theIntentsThePageSendsAreExactlyThoseTheServerKnows() throws {
        var sent: Set<String> = []
        for script in try Self.scripts().values { sent.formUnion(Self.intents(in: script)) }
        // The model's offers (Undo, Redo) name the intent their button sends.
        let offered = Set([InspectorMessage.Offer.undo, .redo].map(\.rawValue))
        let known = Set(WebIntent.Name.allCases.map(\.rawValue))
        #expect(
            sent.subtracting(known).isEmpty,
            "the page sends intents the server does not know: \(sent.subtracting(known).sorted())")
        let unsent = known.subtracting(sent).subtracting(offered)
        #expect(unsent.isEmpty, "the server knows intents the page never sends: \(unsent.sorted())")
        #expect(offered.isSubset(of: known))
    }

    @Test func anIntentIsReadWithItsFieldsTypedAndAnythingElseIsRefused() throws {
        let target: JSONValue = ["s": "memory", "c": "app", "k": "server", "p": "/port"]
        let address = PreferenceAddress(scanner: "memory", container: "app", key: "server")
        #expect(
            try WebIntent(parsing: ["intent": "quickEdit", "target": target, "kind": "toggle"])
                == .quickEdit(.member(address, try JSONPointer(parsing: "/port")), kind: .toggle))
        #expect(try WebIntent(parsing: ["intent": "filter"]) == .filter(text: ""))
        #expect(try WebIntent(parsing: ["intent": "edit"]) == .edit(nil, zone: nil))
        #expect(
            try WebIntent(parsing: ["intent": "save", "local": "2026-01-02T03:04", "confirmed": true])
                == .save(WebIntent.Typed(text: nil, local: "2026-01-02T03:04"), confirmed: true))
        for name in WebIntent.Name.allCases {
            // Every name is read, given the fields it needs.
            let request: JSONValue = [
                "intent": .string(name.rawValue), "target": target, "id": name == .revert ? 7 : "1", "kind": "toggle",
                "zone": "UTC", "scanner": "memory", "container": "app", "key": "new", "type": "string",
                "column": "value", "name": "app.json", "text": "{}",
            ]
            #expect(try WebIntent(parsing: request).name == name)
        }
        #expect(throws: JarvisError.self) { try WebIntent(parsing: ["intent": "view"]) }
        #expect(throws: JarvisError.self) { try WebIntent(parsing: ["text": "x"]) }
        #expect(throws: JarvisError.self) { try WebIntent(parsing: ["intent": "open"]) }
        #expect(throws: JarvisError.self) {
            try WebIntent(parsing: ["intent": "quickEdit", "target": target, "kind": "flip"])
        }
    }

    @Test func anAbsentOptionalIsSentAsNullAndMembersKeepTheirOrder() {
        let json = WebEncoder.encode(WebProblem(message: "bad", line: nil, column: 3))
        #expect(JSONWriter.string(json) == #"{"message":"bad","line":null,"column":3}"#)
        let draft = WebEncoder.encode(
            WebDraft(
                title: "t", editor: "real", text: "1.5", hint: "", choices: ["a"], isNew: false, replacesSecret: false,
                problem: nil, min: 0.5, max: nil, date: nil))
        #expect(draft["min"]?.doubleValue == 0.5)
        #expect(draft["max"] == .null)
        #expect(draft["choices"] == ["a"])
        #expect(draft.objectValue?.keys == WebDraft.CodingKeys.allCases.map(\.stringValue))
    }
}
