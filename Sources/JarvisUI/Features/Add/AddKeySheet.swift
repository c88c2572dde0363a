#if canImport(SwiftUI)
    import JarvisCore
    import JarvisInspector
    import SwiftUI

    /// Adds a key: where, its name and type, then the editor for its value.
    struct AddKeySheet: View {
        @ObservedObject var store: PanelStore
        @State private var container: String
        @State private var name = ""
        @State private var type = PreferenceType.string
        @State private var draft: ValueDraft?
        @State private var problem: String?
        @Environment(\.dismiss) private var dismiss
        private let scanner: String?

        init(store: PanelStore, scanner: String?, container: String? = nil) {
            self.store = store
            self.scanner = scanner
            let first = store.digest.addChoices(scanner: scanner).first
            _container = State(initialValue: container.map { (scanner ?? "") + "\u{0}" + $0 } ?? first?.id ?? "")
        }

        /// The model's places for a new key: writable containers only, catalogued keys first;
        /// a look-up in the digest made off the main thread, not a walk of every key.
        private var choices: [InspectorAddChoice] { store.digest.addChoices(scanner: scanner) }

        private var chosen: InspectorAddChoice? { choices.first { $0.id == container } }

        var body: some View {
            NavigationStack {
                Form {
                    if let draft {
                        Section("Value of \(draft.address.key)") {
                            ValueEditorView(store: store, draft: draft) { dismiss() }
                        }
                    } else {
                        Section("Where") {
                            Picker("Container", selection: $container) {
                                ForEach(choices) { Text($0.title).tag($0.id) }
                            }
                        }
                        if let suggestions = chosen?.suggestions, !suggestions.isEmpty {
                            Section("Declared, not set") {
                                ForEach(suggestions, id: \.self) { suggestion in
                                    Button(suggestion.key) {
                                        name = suggestion.key
                                        type = suggestion.type
                                    }
                                }
                            }
                        }
                        Section("Key") {
                            PlainTextInput(title: "Name", text: $name)
                            Picker("Type", selection: $type) {
                                ForEach(chosen?.types ?? PreferenceType.allCases, id: \.self) {
                                    Text($0.rawValue).tag($0)
                                }
                            }
                        }
                        if let problem {
                            Section { Text(problem).foregroundStyle(.red) }
                        }
                    }
                }
                .textCase(nil)
                .navigationTitle("Add key")
                // Opened before the first digest arrived: take its first place when it does.
                .onReceive(store.$digest) { digest in
                    if container.isEmpty, let first = digest.addChoices(scanner: scanner).first { container = first.id }
                }
                .toolbar {
                    ToolbarItem(placement: .cancellationAction) { Button("Cancel") { dismiss() } }
                    if draft == nil {
                        ToolbarItem(placement: .confirmationAction) { Button("Next") { next() }.disabled(name.isEmpty) }
                    }
                }
            }
        }

        private func next() {
            let parts = container.split(separator: "\u{0}", maxSplits: 1).map(String.init)
            guard parts.count == 2 else {
                problem = "Choose a container"
                return
            }
            do {
                draft = try store.session.newDraft(scanner: parts[0], container: parts[1], key: name, type: type)
                problem = nil
            } catch {
                problem = error.message
            }
        }
    }
#endif
