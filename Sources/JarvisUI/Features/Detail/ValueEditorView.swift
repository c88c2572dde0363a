#if canImport(SwiftUI)
    import Foundation
    import JarvisCore
    import JarvisInspector
    import SwiftUI

    /// The editor that fits a draft's type. Every control edits the draft's text, which the
    /// model checks (type, allowed values, range) before anything is sent; a refusal or a
    /// conflict is shown at the field.
    struct ValueEditorView: View {
        @ObservedObject var store: PanelStore
        @State private var draft: ValueDraft
        let done: () -> Void
        @State private var text: String
        @State private var problem: String?
        @State private var saving = false
        @State private var confirming = false

        init(store: PanelStore, draft: ValueDraft, done: @escaping () -> Void) {
            self.store = store
            _draft = State(initialValue: draft)
            self.done = done
            _text = State(initialValue: draft.text)
        }

        var body: some View {
            VStack(alignment: .leading, spacing: 8) {
                control
                Text(draft.hint).font(.caption).foregroundStyle(.secondary)
                if let problem {
                    Text(problem).font(.caption).foregroundStyle(.red).accessibilityLabel("Error: \(problem)")
                }
                HStack {
                    Button("Cancel", role: .cancel, action: done)
                    Spacer()
                    Button("Save") { save() }
                        .disabled(saving)
                        .keyboardShortcut(.defaultAction)
                }
            }
            .onChange(of: text) { _ in problem = nil }
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
                    ForEach(draft.choices, id: \.self) { choice in
                        Text(ValueFormat.preview(choice, limit: 40)).tag(ValueFormat.editText(choice))
                    }
                }
            case .date:
                DatePicker(
                    draft.title,
                    selection: Binding(
                        get: {
                            if case .date(let date)? = try? ValueDraft.parse(text, as: .date) { return date }
                            return Date()
                        },
                        set: { text = ValueFormat.editText(.date($0)) }),
                    displayedComponents: [.date, .hourAndMinute])
            case .integer, .real:
                TextField(draft.title, text: $text)
                    .font(.body.monospaced())
                    .numberField(decimal: draft.editor == .real)
            case .text:
                TextField(draft.title, text: $text, axis: .vertical)
                    .lineLimit(1...8)
            case .data, .json:
                TextEditor(text: $text)
                    .font(.callout.monospaced())
                    .frame(minHeight: 120)
                    .accessibilityLabel(draft.title)
            }
        }

        private func save() {
            guard draft.confirmation != nil else { return send(confirmed: false) }
            // Ask only about text the model would send.
            do {
                _ = try store.session.check(draft, text: text)
                confirming = true
            } catch {
                problem = error.message
            }
        }

        private func send(confirmed: Bool) {
            saving = true
            Task {
                let refused = await store.save(draft, text: text, confirmed: confirmed)
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

    extension View {
        /// A number keyboard where there is one.
        @ViewBuilder func numberField(decimal: Bool) -> some View {
            #if os(iOS)
                self.keyboardType(decimal ? .decimalPad : .numbersAndPunctuation)
            #else
                self
            #endif
        }
    }
#endif
