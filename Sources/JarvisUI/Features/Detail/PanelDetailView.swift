#if canImport(SwiftUI)
    import JarvisCore
    import JarvisInspector
    import SwiftUI

    /// One key or nested member: its facts, its value, the editor that fits its type, a way
    /// into its members, and reveal, reset and delete where the model offers them.
    struct PanelDetailView: View {
        @ObservedObject var store: PanelStore
        let address: PreferenceAddress
        let pointer: JSONPointer
        @State private var editing: ValueDraft?
        /// After a quick edit met a newer value: the text it made and the conflict's message.
        @State private var kept: (text: String, problem: String)?
        @State private var refusal: String?
        @State private var confirmingDelete = false
        @State private var confirmingReset = false
        @Environment(\.dismiss) private var dismiss

        /// The key's timeline as of the last change (nil until read; the refusal's text when
        /// the agent cannot give it).
        @State private var timeline: Result<[InspectorTimelineEntry], JarvisError>?

        /// The detail as of the last change, made off the main thread with its value shortened
        /// (``PanelDigest/previewLimit``): `body` never formats a large value.
        @State private var shown: Shown = .loading

        /// What the screen shows.
        enum Shown {
            case loading
            case gone
            case detail(InspectorDetail)
        }

        var body: some View {
            Group {
                switch shown {
                case .loading:
                    ProgressView()
                case .gone:
                    PanelEmptyView(
                        title: "Gone", message: "\(address.key) no longer exists.", systemImage: "questionmark")
                case .detail(let detail):
                    content(detail, store.state)
                }
            }
            .task(id: store.version) {
                let made = await store.detail(address, pointer)
                shown = made.map(Shown.detail) ?? .gone
                if pointer.isWhole { timeline = await store.timeline(address) }
            }
        }

        /// Copies the whole value (the screen shows a shortened one), local-only and expiring
        /// when it is a revealed secret.
        private func copyWholeValue(_ row: InspectorRow) {
            let target: InspectorRow.Target = pointer.isWhole ? .key(address) : .member(address, pointer)
            guard let text = store.state.copyTexts(for: target)?.text(.value) else { return }
            Pasteboard.copy(text, policy: PanelCopyPolicy(copying: .value, of: row))
            store.show(.copied(.value, of: row.title))
        }

        @ViewBuilder
        private func content(_ detail: InspectorDetail, _ state: InspectorState) -> some View {
            let row = detail.row
            Form {
                if let banner = state.banner {
                    ReadOnlyBanner(text: banner).listRowInsets(EdgeInsets())
                }
                Section("About") {
                    ForEach(detail.facts, id: \.self) { fact in
                        LabeledContent(fact.label, value: fact.text)
                    }
                }
                if let note = detail.note {
                    Section {
                        Text(note).foregroundStyle(.secondary)
                        if row.isRevealable {
                            Button("Reveal") {
                                Task { refusal = await store.reveal(address) }
                            }
                        }
                    }
                }
                if row.isOpenable {
                    Section {
                        NavigationLink(value: PanelRoute.members(address, pointer)) {
                            Label("\(row.count ?? 0) members", systemImage: "list.bullet.indent")
                        }
                    }
                }
                if let text = detail.valueText {
                    Section("Value") {
                        if Pasteboard.isAvailable {
                            Button("Copy Whole Value") { copyWholeValue(row) }.minimumTapTarget()
                        }
                        Text(text)
                            .font(.callout.monospaced())
                            .textSelection(.enabled)
                            .accessibilityLabel("Value: \(row.preview)")
                    }
                }
                if let draft = editing {
                    Section("Edit") {
                        ValueEditorView(store: store, draft: draft, text: kept?.text, problem: kept?.problem) {
                            editing = nil
                            kept = nil
                        }
                    }
                } else if row.isEditable {
                    Section {
                        Button("Edit") { beginEdit(row) }
                        if let quick = row.quickEdit {
                            Button(quick.title) { quickEdit(row, quick) }
                        }
                        if row.isAppendable {
                            Button(InspectorState.addElementTitle) { beginAppend(row) }
                        }
                    }
                } else if row.isReplaceable {
                    Section {
                        Button("Replace Secret…") { beginReplace() }
                    }
                }
                if let refusal {
                    Section { Text(refusal).foregroundStyle(.red) }
                }
                if pointer.isWhole, let timeline {
                    Section("History") { history(timeline) }
                }
                if row.isResettable || row.isDeletable {
                    Section {
                        if row.isResettable {
                            Button("Reset to default…") { confirmingReset = true }
                        }
                        if row.isDeletable {
                            Button("Delete", role: .destructive) { confirmingDelete = true }
                        }
                    }
                }
            }
            .textCase(nil)
            .navigationTitle(pointer.isWhole ? address.key : (pointer.tokens.last ?? address.key))
            .confirmationDialog(
                "Reset \(row.title) to its default?", isPresented: $confirmingReset, titleVisibility: .visible
            ) {
                Button("Reset", role: .destructive) { Task { await store.reset(address) } }
            } message: {
                Text("Its value goes back to the default.")
            }
            .confirmationDialog("Delete \(row.title)?", isPresented: $confirmingDelete, titleVisibility: .visible) {
                Button("Delete", role: .destructive) {
                    Task {
                        let target: InspectorRow.Target = pointer.isWhole ? .key(address) : .member(address, pointer)
                        if let refused = await store.delete(target) {
                            refusal = refused
                        } else {
                            dismiss()
                        }
                    }
                }
            }
        }

        /// The key's changes, newest first, each with Revert (Redo for an undo) where the
        /// model offers it.
        @ViewBuilder
        private func history(_ timeline: Result<[InspectorTimelineEntry], JarvisError>) -> some View {
            switch timeline {
            case .failure(let error):
                Text(error.message).foregroundStyle(.secondary)
            case .success(let entries) where entries.isEmpty:
                Text("No change to \(address.key) in the journal yet.").foregroundStyle(.secondary)
            case .success(let entries):
                ForEach(entries) { entry in
                    VStack(alignment: .leading, spacing: 4) {
                        Text(entry.summary).font(.callout)
                        HStack {
                            // The date too: the journal outlives a day and a relaunch.
                            Text(entry.time, format: .dateTime.month().day().hour().minute().second())
                                .foregroundStyle(.secondary)
                            if let state = entry.state {
                                Text(state).foregroundStyle(.secondary)
                            }
                            Spacer()
                            if entry.canRevert {
                                Button(entry.revertLabel) { Task { await store.revert(entry) } }
                                    .buttonStyle(.borderless)
                                    .minimumTapTarget()
                                    .accessibilityLabel("\(entry.revertLabel) change \(entry.id)")
                            }
                        }
                        .font(.caption)
                    }
                }
            }
        }

        private func beginReplace() {
            do {
                editing = try store.session.replacementDraft(for: address)
                refusal = nil
            } catch {
                refusal = error.message
            }
        }

        /// The model's one-tap change; a conflict opens the editor with its text, as any
        /// conflicted save keeps the draft.
        private func quickEdit(_ row: InspectorRow, _ kind: InspectorQuickEdit) {
            refusal = nil
            Task {
                guard let conflict = await store.quickEdit(row.target, kind) else { return }
                kept = (conflict.text, conflict.problem)
                editing = conflict.draft
            }
        }

        private func beginAppend(_ row: InspectorRow) {
            do {
                editing = try store.session.appendDraft(to: row.target)
                kept = nil
                refusal = nil
            } catch {
                refusal = error.message
            }
        }

        private func beginEdit(_ row: InspectorRow) {
            do {
                editing = try store.session.draft(for: row.target)
                refusal = nil
            } catch {
                refusal = error.message
            }
        }
    }
#endif
