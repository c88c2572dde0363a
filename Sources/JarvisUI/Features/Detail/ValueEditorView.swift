#if canImport(SwiftUI)
    import Foundation
    import JarvisCore
    import JarvisInspector
    import SwiftUI

    /// The editor that fits a draft's type. Every control edits the draft's text, which the
    /// model checks (type, allowed values, range) before anything is sent; a refusal or a
    /// conflict is shown at the field and the text is kept.
    struct ValueEditorView: View {
        @ObservedObject var store: PanelStore
        @State private var draft: ValueDraft
        let done: () -> Void
        @State private var text: String
        @State private var problem: String?
        @State private var saving = false
        @State private var confirming = false
        @State private var zone = TimeZone.current

        /// Numbers are typed and shown in the device's locale (the keyboard's).
        private let locale = Locale.autoupdatingCurrent

        /// An editor of `draft`, starting from its own text, or from `text` with `problem`
        /// shown (a quick edit that met a newer value: saving overwrites, Cancel keeps theirs).
        init(store: PanelStore, draft: ValueDraft, text: String? = nil, problem: String? = nil, done: @escaping () -> Void)
        {
            self.store = store
            _draft = State(initialValue: draft)
            self.done = done
            var start = draft
            if let text { start.text = text }
            _text = State(initialValue: start.startText(locale: .autoupdatingCurrent))
            _problem = State(initialValue: problem)
        }

        var body: some View {
            Group {
                control
                Text(draft.hint).font(.caption).foregroundStyle(.secondary)
                if let problem {
                    Text(problem).font(.caption).foregroundStyle(.red).accessibilityLabel("Error: \(problem)")
                }
                // Two buttons in one Form row both fire on a tap anywhere in the row: each has
                // a row of its own and the borderless style, so only the one tapped acts.
                Button("Save") { save() }
                    .buttonStyle(.borderless)
                    .minimumTapTarget()
                    .disabled(saving)
                    .keyboardShortcut(.defaultAction)
                Button("Cancel", role: .cancel, action: done)
                    .buttonStyle(.borderless)
                    .minimumTapTarget()
                    .keyboardShortcut(.cancelAction)
            }
            .onChange(of: text) { typed in
                problem = nil
                store.editing(draft.isEdited(typed, locale: locale))
            }
            .onDisappear { store.editing(false) }
            .confirmationDialog(
                draft.confirmation ?? "", isPresented: $confirming, titleVisibility: .visible
            ) {
                Button(draft.replacesSecret ? "Replace" : "Save", role: .destructive) { send(confirmed: true) }
            }
        }

        @ViewBuilder private var control: some View {
            if draft.replacesSecret {
                SecureField(draft.title, text: $text)
            } else {
                typedControl
            }
        }

        @ViewBuilder private var typedControl: some View {
            switch draft.editor {
            case .toggle:
                Toggle(draft.title, isOn: Binding(get: { text == "true" }, set: { text = $0 ? "true" : "false" }))
            case .choice:
                Picker(draft.title, selection: $text) {
                    ForEach(draft.choiceOptions) { option in
                        Text(option.label).tag(option.text)
                    }
                }
            case .date:
                DateEditorView(title: draft.title, text: $text, zone: $zone)
            case .integer, .real, .text, .data, .json:
                PlainTextInput(title: draft.title, text: $text, kind: draft.textKind ?? .text)
                    .editorHeight(text, kind: draft.textKind ?? .text)
            }
        }

        /// The text the model reads: numbers in plain form whatever the locale typed.
        private var plain: String { draft.plainText(text, locale: locale) }

        private func save() {
            guard draft.confirmation != nil else { return send(confirmed: false) }
            // Ask only about text the model would send.
            do {
                _ = try store.session.check(draft, text: plain)
                confirming = true
            } catch {
                problem = error.message
            }
        }

        private func send(confirmed: Bool) {
            saving = true
            let plain = self.plain
            Task {
                let refused = await store.save(draft, text: plain, confirmed: confirmed)
                saving = false
                if let refused {
                    // The text stays; after a conflict the draft is at the revision now.
                    problem = refused.problem
                    draft = refused.draft
                } else {
                    done()
                }
            }
        }
    }

    /// Day, hour and minute in a date picker, the seconds beside it, all read in a time zone
    /// the user picks; the arithmetic is ``DateEditing``'s.
    struct DateEditorView: View {
        let title: String
        @Binding var text: String
        @Binding var zone: TimeZone

        var body: some View {
            let date = DateEditing.start(text)
            DatePicker(
                title,
                selection: Binding(
                    get: { date },
                    set: { picked in
                        text = DateEditing.text(DateEditing.merge(picked: picked, keepingSecondsOf: date, in: zone))
                    }),
                displayedComponents: [.date, .hourAndMinute]
            )
            // The picker shows and reads its components in the environment's time zone.
            .environment(\.timeZone, zone)
            Stepper(
                value: Binding(
                    get: { DateEditing.second(of: date, in: zone) },
                    set: { text = DateEditing.text(DateEditing.setting(second: $0, of: date, in: zone)) }),
                in: 0...59
            ) {
                Text("Seconds: \(DateEditing.second(of: date, in: zone))").monospacedDigit()
            }
            Picker(
                "Time zone",
                selection: Binding(get: { zone.identifier }, set: { zone = TimeZone(identifier: $0) ?? zone })
            ) {
                ForEach(DateEditing.zones(), id: \.self) { identifier in
                    Text(TimeZone(identifier: identifier).map { DateEditing.label($0, at: date) } ?? identifier)
                        .tag(identifier)
                }
            }
            Text(text).font(.caption.monospaced()).foregroundStyle(.secondary).textSelection(.enabled)
        }
    }
#endif
