import Foundation
import JarvisCore
import JarvisInspector

// The inspector model as the page reads it: rows, targets, details and drafts, each made from
// what the model decided. The page draws them and sends targets back as they came.

extension WebTarget {
    /// A key or member target (a scanner or container target names only those).
    init(_ target: InspectorRow.Target) {
        switch target {
        case .key(let address): self.init(s: address.scanner, c: address.container, k: address.key, p: "")
        case .member(let address, let pointer):
            self.init(s: address.scanner, c: address.container, k: address.key, p: pointer.description)
        case .scanner(let id): self.init(s: id, c: "", k: "", p: "")
        case .container(let scanner, let name): self.init(s: scanner, c: name, k: "", p: "")
        }
    }
}

extension WebRow {
    /// One table or tree row.
    init(_ row: InspectorRow) {
        self.init(
            id: Self.id(row.target), target: WebTarget(row.target), key: row.title, container: row.subtitle,
            type: row.type?.rawValue, preview: row.preview, flags: row.flags.map(\.rawValue), openable: row.isOpenable,
            count: row.count, old: row.previous)
    }

    /// A stable identity for a row, for the page's DOM and selection.
    static func id(_ target: InspectorRow.Target) -> String {
        switch target {
        case .key(let address): address.scanner + "\u{1F}" + address.container + "\u{1F}" + address.key
        case .member(let address, let pointer):
            address.scanner + "\u{1F}" + address.container + "\u{1F}" + address.key + "\u{1F}" + pointer.description
        case .scanner(let id): id
        case .container(let scanner, let name): scanner + "\u{1F}" + name
        }
    }
}

extension WebDetail {
    /// A detail pane; without `canEdit`, nothing that changes the value is offered.
    init(_ detail: InspectorDetail, copy: InspectorCopy?, canEdit: Bool, json: String?, jsonNote: String?) {
        let row = detail.row
        self.init(
            row: WebRow(row), title: Self.title(row.target), up: Self.upTitle(row.target),
            facts: detail.facts.map { WebFact(label: $0.label, text: $0.text) }, value: detail.valueText, json: json,
            jsonNote: jsonNote,
            note: detail.note, tree: row.isOpenable,
            actions: WebActions(
                edit: canEdit && row.isEditable, delete: canEdit && row.isDeletable, reveal: row.isRevealable,
                reset: canEdit && row.isResettable, replace: canEdit && row.isReplaceable,
                // One-click changes: a boolean's opposite, a choice's next value, a new element.
                quickEdit: canEdit ? row.quickEdit.map { WebQuickEdit(kind: $0.rawValue, title: $0.title) } : nil,
                addElement: canEdit && row.isAppendable ? InspectorState.addElementTitle : nil),
            copy: copy.map { WebCopy(key: $0.key, value: $0.value, pointer: $0.pointer, command: $0.command) })
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
}

extension WebDraft {
    /// An edit in progress. A secret's replacement never carries the text back: the page has
    /// what was typed, and a response is no place for a secret.
    init(_ draft: ValueDraft, text: String, problem: InspectorFieldProblem?, zone: String) {
        self.init(
            title: VisibleText.escaped(draft.title),
            editor: draft.replacesSecret ? "secret" : Self.editorName(draft.editor),
            text: draft.replacesSecret ? "" : text,
            hint: draft.replacesSecret ? "the new secret; the old value is lost once you confirm" : draft.hint,
            choices: draft.choices.map(ValueFormat.editText), isNew: draft.isNew, replacesSecret: draft.replacesSecret,
            problem: problem.map(WebProblem.init), min: draft.range?.lowerBound, max: draft.range?.upperBound, date: nil
        )
        if draft.editor == .date, let shown = TimeZone(identifier: zone),
            let local = DateEditing.localText(DateEditing.start(text), in: shown)
        {
            // A date editor shows the instant as a clock in the chosen zone reads it; the model
            // converts back. (A date no such field can hold stays ISO text.)
            hint = DateEditing.fieldHint
            date = WebDateField(
                local: local, zone: zone, label: DateEditing.label(shown, at: DateEditing.start(text)),
                zones: Self.zones)
        }
    }

    /// The time zones a date editor offers: this computer's first, then UTC, then every other.
    static let zones = DateEditing.zones()

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

extension WebProblem {
    /// Why the editor's text cannot be saved, and where.
    init(_ problem: InspectorFieldProblem) {
        self.init(message: problem.message, line: problem.line, column: problem.column)
    }
}

extension WebConflict {
    /// A conflict's three values, as the model wrote them.
    init(_ conflict: InspectorConflict) {
        self.init(
            heading: conflict.heading, base: conflict.base, theirs: conflict.theirs, yours: conflict.yours,
            labels: WebConflictLabels(
                base: InspectorConflict.baseLabel, theirs: InspectorConflict.theirsLabel,
                yours: InspectorConflict.yoursLabel, keepTheirs: InspectorConflict.keepTheirsTitle,
                writeMine: InspectorConflict.writeMineTitle))
    }
}

extension WebTimelineEntry {
    /// One change of a key's timeline, as the model wrote it.
    init(_ entry: InspectorTimelineEntry) {
        self.init(
            id: entry.id, time: DateText.format(entry.time), what: entry.what, who: entry.who, pointer: entry.pointer,
            before: entry.before, after: entry.after, state: entry.state, canRevert: entry.canRevert,
            revertLabel: entry.revertLabel)
    }
}

extension WebMessage {
    /// A message for the page's status line.
    init(_ message: InspectorMessage) {
        self.init(
            text: message.text, kind: message.kind.rawValue, offer: message.offer?.rawValue,
            offerLabel: message.offer?.label)
    }
}
