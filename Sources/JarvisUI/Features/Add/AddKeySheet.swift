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
            let first = store.state.containers.first { scanner == nil || $0.scanner == scanner }
            _container = State(
                initialValue: container.map { (scanner ?? "") + "\u{0}" + $0 } ?? first.map {
                    $0.scanner + "\u{0}" + $0.name
                } ?? "")
        }

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
                                ForEach(
                                    store.state.containers.filter { scanner == nil || $0.scanner == scanner },
                                    id: \.self
                                ) {
                                    Text("\($0.name) (\($0.scanner))").tag($0.scanner + "\u{0}" + $0.name)
                                }
                            }
                        }
                        Section("Key") {
                            TextField("Name", text: $name)
                                .autocorrectionDisabled()
                            Picker("Type", selection: $type) {
                                ForEach(PreferenceType.allCases, id: \.self) { Text($0.rawValue).tag($0) }
                            }
                        }
                        if let problem {
                            Section { Text(problem).foregroundStyle(.red) }
                        }
                    }
                }
                .navigationTitle("Add key")
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
