import Foundation
import JarvisCore
import JarvisInspector

/// The inspector model as the page reads it: rows, targets, details and drafts as JSON.
///
/// Only what the model decided goes out: names, previews, flags and what may be offered. The
/// page draws it and sends targets back as they came.
enum WebJSON {
    static func int(_ value: Int) -> JSONValue { .number(JSONNumber(value)) }

    static func text(_ value: String?) -> JSONValue { value.map(JSONValue.string) ?? .null }

    static func object(_ pairs: [(String, JSONValue)]) -> JSONValue { .object(JSONObject(pairs)) }

    /// A key or member target: `{s, c, k, p}` (p: the pointer inside the key, "" for the whole key).
    static func target(_ target: InspectorRow.Target) -> JSONValue {
        switch target {
        case .key(let address):
            return object([("s", .string(address.scanner)), ("c", .string(address.container)), ("k", .string(address.key)), ("p", "")])
        case .member(let address, let pointer):
            return object([
                ("s", .string(address.scanner)), ("c", .string(address.container)), ("k", .string(address.key)),
                ("p", .string(pointer.description)),
            ])
        case .scanner(let id):
            return object([("s", .string(id))])
        case .container(let scanner, let name):
            return object([("s", .string(scanner)), ("c", .string(name))])
        }
    }

    /// A target the page sent back.
    static func target(from json: JSONValue?) throws(JarvisError) -> InspectorRow.Target {
        guard let json, let scanner = json["s"]?.stringValue, let container = json["c"]?.stringValue,
            let key = json["k"]?.stringValue
        else { throw JarvisError(.invalidParams, "the request names no key") }
        let address = PreferenceAddress(scanner: scanner, container: container, key: key)
        let pointerText = json["p"]?.stringValue ?? ""
        guard !pointerText.isEmpty else { return .key(address) }
        return .member(address, try JSONPointer(parsing: pointerText))
    }

    /// One table or tree row.
    static func row(_ row: InspectorRow) -> JSONValue {
        var pairs: [(String, JSONValue)] = [
            ("id", .string(rowID(row.target))),
            ("target", target(row.target)),
            ("key", .string(row.title)),
            ("container", text(row.subtitle)),
            ("type", text(row.type?.rawValue)),
            ("preview", .string(row.preview)),
            ("flags", .array(row.flags.map { .string($0.rawValue) })),
            ("openable", .bool(row.isOpenable)),
            ("editable", .bool(row.isEditable)),
            ("deletable", .bool(row.isDeletable)),
            ("revealable", .bool(row.isRevealable)),
        ]
        if let count = row.count { pairs.append(("count", int(count))) }
        if let previous = row.previous { pairs.append(("old", .string(previous))) }
        return object(pairs)
    }

    /// A stable identity for a row, for the page's DOM and selection.
    static func rowID(_ target: InspectorRow.Target) -> String {
        switch target {
        case .key(let address): address.scanner + "\u{1F}" + address.container + "\u{1F}" + address.key
        case .member(let address, let pointer):
            address.scanner + "\u{1F}" + address.container + "\u{1F}" + address.key + "\u{1F}" + pointer.description
        case .scanner(let id): id
        case .container(let scanner, let name): scanner + "\u{1F}" + name
        }
    }

    /// A detail pane.
    static func detail(
        _ detail: InspectorDetail, copy: InspectorCopy?, canReset: Bool, json: String?, jsonNote: String? = nil
    ) -> JSONValue {
        let row = detail.row
        var pairs: [(String, JSONValue)] = [
            ("row", Self.row(row)),
            ("title", .string(title(row.target))),
            ("up", text(upTitle(row.target))),
            ("facts", .array(detail.facts.map { object([("label", .string($0.label)), ("text", .string($0.text))]) })),
            ("value", text(detail.valueText)),
            ("json", text(json)),
            ("jsonNote", text(jsonNote)),
            ("note", text(detail.note)),
            ("tree", .bool(row.isOpenable)),
            (
                "actions",
                object([
                    ("edit", .bool(row.isEditable)), ("delete", .bool(row.isDeletable)),
                    ("reveal", .bool(row.isRevealable)), ("reset", .bool(canReset)),
                    ("replace", .bool(row.isReplaceable)),
                    // One-click changes: a boolean's opposite, a choice's next value, a new element.
                    (
                        "quickEdit",
                        row.quickEdit.map { object([("kind", .string($0.rawValue)), ("title", .string($0.title))]) }
                            ?? .null
                    ),
                    ("addElement", row.isAppendable ? .string(InspectorState.addElementTitle) : .null),
                ])
            ),
        ]
        if let copy {
            pairs.append(
                (
                    "copy",
                    object([
                        ("key", .string(copy.key)), ("value", text(copy.value)), ("pointer", .string(copy.pointer)),
                        ("command", text(copy.command)),
                    ])
                ))
        }
        return object(pairs)
    }

    /// A key's name, or the key and the pointer of a member inside it (`server/port`), as a
    /// draft's title reads, with its hidden characters shown (``VisibleText``).
    static func title(_ target: InspectorRow.Target) -> String {
        guard let address = target.address else { return "" }
        return VisibleText.escaped(target.pointer.isWhole ? address.key : address.key + target.pointer.description)
    }

    /// Where Esc goes from a member: its parent member, or the key (nil for a key: the table).
    static func upTitle(_ target: InspectorRow.Target) -> String? {
        guard let address = target.address, !target.pointer.isWhole else { return nil }
        return VisibleText.escaped(target.pointer.tokens.dropLast().last ?? address.key)
    }

    /// An edit in progress. A secret's replacement never carries the text back: the page has
    /// what was typed, and a response is no place for a secret.
    static func draft(_ draft: ValueDraft, text: String, problem: InspectorFieldProblem?, zone: String) -> JSONValue {
        var pairs: [(String, JSONValue)] = [
            ("title", .string(VisibleText.escaped(draft.title))),
            ("target", target(draft.pointer.isWhole ? .key(draft.address) : .member(draft.address, draft.pointer))),
            ("type", .string(draft.type.rawValue)),
            ("editor", .string(draft.replacesSecret ? "secret" : editorName(draft.editor))),
            ("text", .string(draft.replacesSecret ? "" : text)),
            ("hint", .string(draft.replacesSecret ? "the new secret; the old value is lost once you confirm" : draft.hint)),
            ("choices", .array(draft.choices.map { .string(ValueFormat.editText($0)) })),
            ("isNew", .bool(draft.isNew)),
            ("replacesSecret", .bool(draft.replacesSecret)),
            ("error", WebJSON.text(problem?.text)),
            ("problem", problem.map(Self.problem) ?? .null),
        ]
        if let range = draft.range {
            pairs.append(("min", JSONNumber(range.lowerBound).map(JSONValue.number) ?? .null))
            pairs.append(("max", JSONNumber(range.upperBound).map(JSONValue.number) ?? .null))
        }
        if draft.editor == .date, let shown = TimeZone(identifier: zone),
            let local = DateEditing.localText(DateEditing.start(text), in: shown)
        {
            // A date editor shows the instant as a clock in the chosen zone reads it; the model
            // converts back. (A date no such field can hold stays ISO text.)
            pairs = pairs.map { $0.0 == "hint" ? ("hint", .string(DateEditing.fieldHint)) : $0 }
            pairs.append(
                (
                    "date",
                    object([
                        ("local", .string(local)), ("zone", .string(zone)),
                        ("label", .string(DateEditing.label(shown, at: DateEditing.start(text)))),
                        ("zones", zones),
                    ])
                ))
        }
        return object(pairs)
    }

    /// Why the editor's text cannot be saved, and where (JSON: line and column).
    static func problem(_ problem: InspectorFieldProblem) -> JSONValue {
        object([
            ("message", .string(problem.message)), ("line", problem.line.map(int) ?? .null),
            ("column", problem.column.map(int) ?? .null),
        ])
    }

    /// A conflict's three values, as the model wrote them.
    static func conflict(_ conflict: InspectorConflict) -> JSONValue {
        object([
            ("title", .string(conflict.title)), ("heading", .string(conflict.heading)), ("base", .string(conflict.base)),
            ("theirs", .string(conflict.theirs)), ("yours", .string(conflict.yours)),
            (
                "labels",
                object([
                    ("base", .string(InspectorConflict.baseLabel)), ("theirs", .string(InspectorConflict.theirsLabel)),
                    ("yours", .string(InspectorConflict.yoursLabel)),
                    ("keepTheirs", .string(InspectorConflict.keepTheirsTitle)),
                    ("writeMine", .string(InspectorConflict.writeMineTitle)),
                ])
            ),
        ])
    }

    /// A message for the page's status line.
    /// One change of a key's timeline: `{id, time, what, who, pointer, before, after, state,
    /// canRevert, revertLabel}`, `time` in ISO 8601.
    static func timelineEntry(_ entry: InspectorTimelineEntry) -> JSONValue {
        object([
            ("id", .number(JSONNumber(entry.id))), ("time", .string(DateText.format(entry.time))),
            ("what", .string(entry.what)), ("who", .string(entry.who)), ("pointer", text(entry.pointer)),
            ("before", .string(entry.before)), ("after", .string(entry.after)), ("state", text(entry.state)),
            ("canRevert", .bool(entry.canRevert)), ("revertLabel", .string(entry.revertLabel)),
        ])
    }

    static func message(_ message: InspectorMessage) -> JSONValue {
        object([
            ("text", .string(message.text)), ("kind", .string(message.kind.rawValue)),
            ("offer", message.offer.map { .string($0.rawValue) } ?? .null),
            ("offerLabel", message.offer.map { .string($0.label) } ?? .null),
        ])
    }

    /// The time zones a date editor offers: this computer's first, then UTC, then every other.
    static let zones: JSONValue = .array(DateEditing.zones().map(JSONValue.string))

    static func editorName(_ editor: ValueDraft.Editor) -> String {
        switch editor {
        case .text: "text"
        case .integer: "integer"
        case .real: "real"
        case .toggle: "toggle"
        case .date: "date"
        case .data: "data"
        case .choice: "choice"
        case .json: "json"
        }
    }
}
