import JarvisCore
import JarvisInspector

/// What the page asks of its ``WebPage``: the server's side of the contract. The page posts
/// `{"intent": NAME, …fields}` to `api/pages/ID/intent`; ``init(parsing:)`` reads it into one
/// case with its fields typed, and `WebContractTests` checks that the names the page's
/// scripts send are exactly ``Name``'s cases.
enum WebIntent: Sendable, Equatable {
    /// Every intent's name on the wire.
    enum Name: String, CaseIterable, Sendable {
        case agent, scope, filter, chip, sort, open, close, members, edit, quickEdit, addElement, replace, check, zone
        case save, unask, cancel, keepTheirs, writeMine, delete, deletePreview, deleteFiltered, bulkCancel
        case reset, reveal, addStart, addCancel, addCreate, revert, undo, redo
        case fleetKey, fleetClose, fleetSetAll, fleetCopy, compareAgent, compareFile, compareApply, compareClose
    }

    /// A date editor's field: the editor's `text`, or its `local` date and time.
    struct Typed: Sendable, Equatable {
        var text: String?
        var local: String?
    }

    /// Opens the agent the sidebar listed with this id.
    case agent(id: String)
    /// Shows every key (both nil), a scanner's or a container's.
    case scope(scanner: String?, container: String?)
    case filter(text: String)
    /// Turns a chip on or off (nil: the other way round).
    case chip(id: String, on: Bool?)
    /// Orders the table by a column (the same column again reverses it).
    case sort(InspectorSort.Column)
    case open(InspectorRow.Target)
    case close
    /// A window of a value's members, from `from`.
    case members(InspectorRow.Target, from: Int)
    /// Edits `target` (nil: the selected row); a date editor starts in `zone`.
    case edit(InspectorRow.Target?, zone: String?)
    case quickEdit(InspectorRow.Target, kind: InspectorQuickEdit)
    case addElement(InspectorRow.Target, zone: String?)
    case replace(InspectorRow.Target)
    /// Checks what the editor holds now (nothing is sent to the agent).
    case check(Typed)
    /// Shows the date editor in another time zone.
    case zone(String, Typed)
    case save(Typed, confirmed: Bool)
    case unask
    case cancel
    case keepTheirs
    case writeMine
    case delete(InspectorRow.Target)
    case deletePreview
    case deleteFiltered
    case bulkCancel
    case reset(InspectorRow.Target)
    case reveal(InspectorRow.Target)
    case addStart
    case addCancel
    case addCreate(scanner: String, container: String, key: String, type: PreferenceType, zone: String?)
    /// Puts back what one change of the selected key's timeline did (its `id`).
    case revert(id: Int64)
    case undo
    case redo
    /// Compares the key (or member) on every running agent.
    case fleetKey(InspectorRow.Target)
    case fleetClose
    /// Writes the value in view to every other agent compared, each guarded by its revision;
    /// `create`: also where the key is absent (the page asked first).
    case fleetSetAll(create: Bool)
    /// Writes the value in view to the agents compared with these ids (pids); `create` as for
    /// `fleetSetAll`.
    case fleetCopy(agents: [String], create: Bool)
    /// Compares the container in view with the same container on the agent of this id.
    case compareAgent(id: String)
    /// Compares the container in view with a snapshot file's (its name and text).
    case compareFile(name: String, text: String)
    /// Applies the difference of one key to the agent in view.
    case compareApply(key: String)
    case compareClose

    /// The intent's name.
    var name: Name {
        switch self {
        case .agent: .agent
        case .scope: .scope
        case .filter: .filter
        case .chip: .chip
        case .sort: .sort
        case .open: .open
        case .close: .close
        case .members: .members
        case .edit: .edit
        case .quickEdit: .quickEdit
        case .addElement: .addElement
        case .replace: .replace
        case .check: .check
        case .zone: .zone
        case .save: .save
        case .unask: .unask
        case .cancel: .cancel
        case .keepTheirs: .keepTheirs
        case .writeMine: .writeMine
        case .delete: .delete
        case .deletePreview: .deletePreview
        case .deleteFiltered: .deleteFiltered
        case .bulkCancel: .bulkCancel
        case .reset: .reset
        case .reveal: .reveal
        case .addStart: .addStart
        case .addCancel: .addCancel
        case .addCreate: .addCreate
        case .revert: .revert
        case .undo: .undo
        case .redo: .redo
        case .fleetKey: .fleetKey
        case .fleetClose: .fleetClose
        case .fleetSetAll: .fleetSetAll
        case .fleetCopy: .fleetCopy
        case .compareAgent: .compareAgent
        case .compareFile: .compareFile
        case .compareApply: .compareApply
        case .compareClose: .compareClose
        }
    }

    /// The intents that change what the agent stores: their message offers Undo.
    var changesStorage: Bool {
        switch name {
        case .save, .writeMine, .quickEdit, .delete, .deleteFiltered, .reset, .compareApply: true
        default: false
        }
    }

    /// Reads one request of the page.
    /// - Throws: ``JarvisError`` `.invalidParams` naming what is missing or unknown.
    init(parsing request: JSONValue) throws(JarvisError) {
        guard let text = request["intent"]?.stringValue else {
            throw JarvisError(.invalidParams, "the request names no intent")
        }
        guard let name = Name(rawValue: text) else { throw JarvisError(.invalidParams, "unknown intent '\(text)'") }
        let string = { (field: String) in request[field]?.stringValue }
        let target = { () throws(JarvisError) in try Self.target(from: request["target"]) }
        let typed = Typed(text: string("text"), local: string("local"))
        switch name {
        case .agent:
            guard let id = string("id") else { throw JarvisError(.invalidParams, "choose an agent") }
            self = .agent(id: id)
        case .scope: self = .scope(scanner: string("scanner"), container: string("container"))
        case .filter: self = .filter(text: string("text") ?? "")
        case .chip:
            guard let id = string("id") else { throw JarvisError(.invalidParams, "no such filter chip") }
            self = .chip(id: id, on: request["on"]?.boolValue)
        case .sort:
            guard let column = string("column").flatMap(InspectorSort.Column.init(rawValue:)) else {
                throw JarvisError(.invalidParams, "sort by key, type or value")
            }
            self = .sort(column)
        case .open: self = .open(try target())
        case .close: self = .close
        case .members:
            self = .members(try target(), from: request["from"]?.int64Value.map { Int(clamping: $0) } ?? 0)
        case .edit:
            self = .edit(request["target"] == nil ? nil : try target(), zone: string("zone"))
        case .quickEdit:
            let found = try target()
            guard let kind = string("kind").flatMap(InspectorQuickEdit.init(rawValue:)) else {
                throw JarvisError(.invalidParams, "name the quick edit: toggle or nextChoice")
            }
            self = .quickEdit(found, kind: kind)
        case .addElement: self = .addElement(try target(), zone: string("zone"))
        case .replace: self = .replace(try target())
        case .check: self = .check(typed)
        case .zone:
            guard let zone = string("zone") else { throw JarvisError(.invalidParams, "name the time zone") }
            self = .zone(zone, typed)
        case .save: self = .save(typed, confirmed: request["confirmed"]?.boolValue ?? false)
        case .unask: self = .unask
        case .cancel: self = .cancel
        case .keepTheirs: self = .keepTheirs
        case .writeMine: self = .writeMine
        case .delete: self = .delete(try target())
        case .deletePreview: self = .deletePreview
        case .deleteFiltered: self = .deleteFiltered
        case .bulkCancel: self = .bulkCancel
        case .reset: self = .reset(try target())
        case .reveal: self = .reveal(try target())
        case .addStart: self = .addStart
        case .addCancel: self = .addCancel
        case .addCreate:
            guard let scanner = string("scanner"), let container = string("container"), let key = string("key"),
                let type = string("type").flatMap(PreferenceType.init(rawValue:))
            else { throw JarvisError(.invalidParams, "name the container, the key and its type") }
            self = .addCreate(scanner: scanner, container: container, key: key, type: type, zone: string("zone"))
        case .revert:
            guard let id = request["id"]?.int64Value else {
                throw JarvisError(.invalidParams, "that change is not in the key's timeline any more")
            }
            self = .revert(id: id)
        case .undo: self = .undo
        case .redo: self = .redo
        case .fleetKey: self = .fleetKey(try target())
        case .fleetClose: self = .fleetClose
        case .fleetSetAll: self = .fleetSetAll(create: request["create"]?.boolValue ?? false)
        case .fleetCopy:
            let ids = (request["agents"]?.arrayValue ?? []).compactMap(\.stringValue)
            self = .fleetCopy(agents: ids, create: request["create"]?.boolValue ?? false)
        case .compareAgent:
            guard let id = string("id") else { throw JarvisError(.invalidParams, "choose an agent to compare with") }
            self = .compareAgent(id: id)
        case .compareFile:
            guard let name = string("name"), let text = string("text") else {
                throw JarvisError(.invalidParams, "choose a snapshot file (from `jarvis export`)")
            }
            self = .compareFile(name: name, text: text)
        case .compareApply:
            guard let key = string("key") else { throw JarvisError(.invalidParams, "the request names no difference") }
            self = .compareApply(key: key)
        case .compareClose: self = .compareClose
        }
    }

    /// A target the page sent back, as ``WebTarget`` gave it.
    static func target(from json: JSONValue?) throws(JarvisError) -> InspectorRow.Target {
        guard let json, let scanner = json["s"]?.stringValue, let container = json["c"]?.stringValue,
            let key = json["k"]?.stringValue
        else { throw JarvisError(.invalidParams, "the request names no key") }
        let address = PreferenceAddress(scanner: scanner, container: container, key: key)
        let pointer = json["p"]?.stringValue ?? ""
        guard !pointer.isEmpty else { return .key(address) }
        return .member(address, try JSONPointer(parsing: pointer))
    }
}
