/// The page's side of the contract: everything `jarvis web` sends the page, as types. Each
/// field is one the page reads (`WebContractTests` parses the page's scripts and compares
/// their reads with these coding keys, both ways); what the model decided goes out, and the
/// page draws it.
///
/// Every optional is sent as `null` when absent (``WebEncoder``).
struct WebView: Encodable, Sendable {
    var version: Int
    var agents: [WebAgentChoice]
    var filter: String
    var chips: [WebChip]
    var table: WebTableInfo
    var sort: WebSort
    var message: WebMessage?
    var agent: WebAgentInfo?
    var connection: WebConnection
    var banner: String?
    var canEdit: Bool
    var scanners: [WebScanner]
    var scope: WebScope?
    var detail: WebDetail?
    /// The selected key's changes from the agent's journal.
    var timeline: WebTimeline?
    var draft: WebDraft?
    var question: String?
    var conflict: WebConflict?
    var bulk: WebBulk?
    var add: WebAdd?
    var canBulkDelete: Bool
    /// The key in view compared on every agent.
    var fleet: WebFleet?
    /// The container in view compared with another agent or a snapshot file.
    var comparison: WebComparison?
    /// What a container in view may be compared with.
    var compareOffer: WebCompareOffer?

    enum CodingKeys: String, CodingKey, CaseIterable {
        case version, agents, filter, chips, table, sort, message, agent, connection, banner, canEdit, scanners, scope
        case detail, timeline, draft, question, conflict, bulk, add, canBulkDelete, fleet, comparison, compareOffer
    }
}

/// An agent the sidebar offers.
struct WebAgentChoice: Encodable, Sendable, Equatable {
    /// What the `agent` intent sends back: a pid, or `--agent`'s `tcp://` address.
    var id: String
    var title: String
    var subtitle: String
    var group: String
    var current: Bool

    enum CodingKeys: String, CodingKey, CaseIterable { case id, title, subtitle, group, current }
}

/// A filter chip and whether it is on.
struct WebChip: Encodable, Sendable {
    var id: String
    var label: String
    var on: Bool

    enum CodingKeys: String, CodingKey, CaseIterable { case id, label, on }
}

/// The table as the view tells it: how many rows, which listing they belong to, and the rows
/// that changed in place since the view before.
struct WebTableInfo: Encodable, Sendable {
    var total: Int
    /// Grows when rows come, go or move: the page forgets every row it holds.
    var version: Int
    /// Grows when rows change in place; `patches` bring a page from `from` to it (a page at
    /// another revision forgets its rows instead).
    var revision: Int
    var from: Int
    var patches: [WebTablePatch]

    enum CodingKeys: String, CodingKey, CaseIterable { case total, version, revision, from, patches }
}

/// One row changed in place, at its index in the page's table.
struct WebTablePatch: Encodable, Sendable {
    var index: Int
    var row: WebRow

    enum CodingKeys: String, CodingKey, CaseIterable { case index, row }
}

/// The table's order: a column (`key`, `type`, `value`) and its direction.
struct WebSort: Encodable, Sendable {
    var column: String
    var descending: Bool

    enum CodingKeys: String, CodingKey, CaseIterable { case column, descending }
}

/// The status line's message, and what it offers beside it (an intent's name).
struct WebMessage: Encodable, Sendable {
    var text: String
    var kind: String
    /// The intent the button sends (``WebIntent/Name/undo`` or ``WebIntent/Name/redo``).
    var offer: String?
    var offerLabel: String?

    enum CodingKeys: String, CodingKey, CaseIterable { case text, kind, offer, offerLabel }
}

/// The agent open in the page.
struct WebAgentInfo: Encodable, Sendable {
    var name: String
    var pid: Int
    var platform: String

    enum CodingKeys: String, CodingKey, CaseIterable { case name, pid, platform }
}

/// Whether changes arrive live: `none`, `live`, `static` or `gone`, and why.
struct WebConnection: Encodable, Sendable {
    var state: String
    var message: String?
    /// No agent was named and several run: the page offers them to choose from.
    var choose: Bool

    enum CodingKeys: String, CodingKey, CaseIterable { case state, message, choose }
}

/// A scanner of the sidebar, with its containers.
struct WebScanner: Encodable, Sendable {
    var id: String
    var title: String
    var count: Int
    var problem: String?
    var containers: [WebContainer]

    enum CodingKeys: String, CodingKey, CaseIterable { case id, title, count, problem, containers }
}

/// A container of the sidebar.
struct WebContainer: Encodable, Sendable {
    /// What the `scope` intent sends back.
    var name: String
    /// The name as shown, hidden characters escaped.
    var title: String
    var count: Int
    var problem: String?
    /// Why a container this large matters (over 512 KB); nil below.
    var sizeWarning: String?

    enum CodingKeys: String, CodingKey, CaseIterable { case name, title, count, problem, sizeWarning }
}

/// What the table shows: every key (both nil), a scanner's, or a container's.
struct WebScope: Encodable, Sendable {
    var scanner: String?
    var container: String?

    enum CodingKeys: String, CodingKey, CaseIterable { case scanner, container }
}

/// A key or member, as the page sends it back (`{s, c, k, p}`; p: the JSON pointer inside the
/// key, "" for the whole key). The page reads only `p`; the rest is the server's.
struct WebTarget: Encodable, Sendable, Hashable {
    var s: String
    var c: String
    var k: String
    var p: String

    enum CodingKeys: String, CodingKey, CaseIterable { case s, c, k, p }
}

/// One table or tree row.
struct WebRow: Encodable, Sendable, Equatable {
    /// A stable identity, for the page's selection.
    var id: String
    var target: WebTarget
    var key: String
    var container: String?
    var type: String?
    var preview: String
    var flags: [String]
    var openable: Bool
    /// A dictionary's or array's number of members.
    var count: Int?
    /// What a changed row held before ("old → new").
    var old: String?

    enum CodingKeys: String, CodingKey, CaseIterable {
        case id, target, key, container, type, preview, flags, openable, count, old
    }
}

/// The detail pane.
struct WebDetail: Encodable, Sendable {
    var row: WebRow
    var title: String
    /// Where Esc goes from a member: its parent's name, or the key's (nil for a key).
    var up: String?
    var facts: [WebFact]
    var value: String?
    var json: String?
    /// How the JSON tab writes what JSON has no type for (dates, data), when the value holds any.
    var jsonNote: String?
    var note: String?
    var tree: Bool
    var actions: WebActions
    var copy: WebCopy?

    enum CodingKeys: String, CodingKey, CaseIterable {
        case row, title, up, facts, value, json, jsonNote, note, tree, actions, copy
    }
}

/// A key's changes from the agent's journal, newest first, or why there are none.
struct WebTimeline: Encodable, Sendable {
    var entries: [WebTimelineEntry]
    var problem: String?

    enum CodingKeys: String, CodingKey, CaseIterable { case entries, problem }
}

/// One change of a key's timeline; `time` in ISO 8601, `id` what `revert` sends back.
struct WebTimelineEntry: Encodable, Sendable {
    var id: Int64
    var time: String
    var what: String
    var who: String
    var pointer: String?
    var before: String
    var after: String
    var state: String?
    var canRevert: Bool
    var revertLabel: String

    enum CodingKeys: String, CodingKey, CaseIterable {
        case id, time, what, who, pointer, before, after, state, canRevert, revertLabel
    }
}

/// A labelled fact of the detail pane.
struct WebFact: Encodable, Sendable {
    var label: String
    var text: String

    enum CodingKeys: String, CodingKey, CaseIterable { case label, text }
}

/// What the detail pane offers, as the model allows it.
struct WebActions: Encodable, Sendable {
    var edit: Bool
    var delete: Bool
    var reveal: Bool
    var reset: Bool
    var replace: Bool
    /// A boolean's opposite or a choice's next value, in one click.
    var quickEdit: WebQuickEdit?
    /// The button's title, when an element can be added.
    var addElement: String?

    enum CodingKeys: String, CodingKey, CaseIterable {
        case edit, delete, reveal, reset, replace, quickEdit, addElement
    }
}

/// A one-click change: its kind (sent back with `quickEdit`) and its button's title.
struct WebQuickEdit: Encodable, Sendable {
    var kind: String
    var title: String

    enum CodingKeys: String, CodingKey, CaseIterable { case kind, title }
}

/// What may be copied.
struct WebCopy: Encodable, Sendable {
    var key: String
    var value: String?
    var pointer: String
    var command: String?

    enum CodingKeys: String, CodingKey, CaseIterable { case key, value, pointer, command }
}

/// An edit in progress. A secret's replacement never carries its text back.
struct WebDraft: Encodable, Sendable {
    var title: String
    var editor: String
    var text: String
    var hint: String
    var choices: [String]
    var isNew: Bool
    var replacesSecret: Bool
    var problem: WebProblem?
    var min: Double?
    var max: Double?
    /// A date editor's clock, zone and zones; nil for every other editor.
    var date: WebDateField?

    enum CodingKeys: String, CodingKey, CaseIterable {
        case title, editor, text, hint, choices, isNew, replacesSecret, problem, min, max, date
    }
}

/// Why the editor's text cannot be saved, and where (JSON: line and column).
struct WebProblem: Encodable, Sendable {
    var message: String
    var line: Int?
    var column: Int?

    enum CodingKeys: String, CodingKey, CaseIterable { case message, line, column }
}

/// A date editor: the instant as a clock in `zone` reads it, and the zones offered.
struct WebDateField: Encodable, Sendable {
    var local: String
    var zone: String
    var label: String
    var zones: [String]

    enum CodingKeys: String, CodingKey, CaseIterable { case local, zone, label, zones }
}

/// A conflict's three values and every word of its box, as the model wrote them.
struct WebConflict: Encodable, Sendable {
    var heading: String
    var base: String
    var theirs: String
    var yours: String
    var labels: WebConflictLabels

    enum CodingKeys: String, CodingKey, CaseIterable { case heading, base, theirs, yours, labels }
}

/// The conflict box's labels and buttons.
struct WebConflictLabels: Encodable, Sendable {
    var base: String
    var theirs: String
    var yours: String
    var keepTheirs: String
    var writeMine: String

    enum CodingKeys: String, CodingKey, CaseIterable { case base, theirs, yours, keepTheirs, writeMine }
}

/// A pending delete of what the filter shows.
struct WebBulk: Encodable, Sendable {
    var count: Int
    var question: String
    var keys: [String]

    enum CodingKeys: String, CodingKey, CaseIterable { case count, question, keys }
}

/// What "Add key" offers: the writable containers and the catalog's keys with nothing stored.
struct WebAdd: Encodable, Sendable {
    var containers: [WebAddContainer]
    var suggestions: [WebSuggestion]

    enum CodingKeys: String, CodingKey, CaseIterable { case containers, suggestions }
}

/// A container a key may be added to, and the types it takes.
struct WebAddContainer: Encodable, Sendable {
    var scanner: String
    var container: String
    var title: String
    var types: [String]

    enum CodingKeys: String, CodingKey, CaseIterable { case scanner, container, title, types }
}

/// A key the catalog declares with nothing stored.
struct WebSuggestion: Encodable, Sendable {
    var scanner: String
    var container: String
    var key: String
    var type: String
    var about: String?

    enum CodingKeys: String, CodingKey, CaseIterable { case scanner, container, key, type, about }
}

/// A key compared on every agent: one line per agent (the agent in view first), and the
/// outcome per agent of the last "Set on all" or "Copy to…".
struct WebFleet: Encodable, Sendable {
    var title: String
    /// Lines not read yet say `reading`.
    var lines: [WebFleetLine]
    /// Whether the agent in view has a value here to write to the others.
    var canCopy: Bool
    var results: [WebFleetLine]?
    var summary: String?

    enum CodingKeys: String, CodingKey, CaseIterable { case title, lines, canCopy, results, summary }
}

/// One agent's line: its value, or its status (`reading`, `no answer`, `not found`,
/// `refused`, `conflict`, …) and why; `id` is what `fleetCopy` sends back.
struct WebFleetLine: Encodable, Sendable {
    var id: String
    var agent: String
    var own: Bool
    var status: String
    var value: String?
    var reason: String?
    /// Its value differs from the agent in view's.
    var differs: Bool

    enum CodingKeys: String, CodingKey, CaseIterable { case id, agent, own, status, value, reason, differs }
}

/// A container compared with another side: its differences, each with the button that
/// applies it to the agent in view (nil where it cannot be applied, and why).
struct WebComparison: Encodable, Sendable {
    var title: String
    var there: String
    var differences: [WebDifference]
    var unchanged: Int
    var notCompared: Int
    /// What applying the last difference did.
    var applied: WebMessage?

    enum CodingKeys: String, CodingKey, CaseIterable {
        case title, there, differences, unchanged, notCompared, applied
    }
}

/// One key that differs: `added` (only there), `removed` (only here) or `changed`; `key`
/// is what `compareApply` sends back.
struct WebDifference: Encodable, Sendable {
    var key: String
    var title: String
    var kind: String
    var here: String?
    var there: String?
    var apply: String?
    var blocked: String?

    enum CodingKeys: String, CodingKey, CaseIterable { case key, title, kind, here, there, apply, blocked }
}

/// What the container in view may be compared with: another agent (of `agents`) or a
/// snapshot file of at most `snapshotLimit` bytes (`tooLarge` says why a larger one is not sent).
struct WebCompareOffer: Encodable, Sendable {
    var container: String
    var snapshotLimit: Int
    var tooLarge: String

    enum CodingKeys: String, CodingKey, CaseIterable { case container, snapshotLimit, tooLarge }
}

/// A window of the table (`GET api/pages/ID/rows`).
struct WebRowsWindow: Encodable, Sendable {
    var version: Int
    var revision: Int
    var total: Int
    var from: Int
    var rows: [WebRow]

    enum CodingKeys: String, CodingKey, CaseIterable { case version, revision, total, from, rows }
}

/// A window of a value's members (the `members` intent).
struct WebMembers: Encodable, Sendable {
    var members: [WebRow]
    var from: Int
    /// How many members follow the window.
    var more: Int

    enum CodingKeys: String, CodingKey, CaseIterable { case members, from, more }
}

/// A newly opened page (`POST api/pages`).
struct WebOpened: Encodable, Sendable {
    var page: String
    var view: WebView

    enum CodingKeys: String, CodingKey, CaseIterable { case page, view }
}

/// One `view` event of the live stream: the page it is for, and its view.
struct WebStreamEvent: Encodable, Sendable {
    var page: String
    var view: WebView

    enum CodingKeys: String, CodingKey, CaseIterable { case page, view }
}

/// The `closed` event of a live stream: the pages it was asked for that are not open (the
/// server closed them, or they never were), whose tabs must reload.
struct WebClosedEvent: Encodable, Sendable {
    var pages: [String]

    enum CodingKeys: String, CodingKey, CaseIterable { case pages }
}

/// A refusal of a page's request (status 400 or 404).
struct WebFailure: Encodable, Sendable {
    var error: String

    enum CodingKeys: String, CodingKey, CaseIterable { case error }
}
