#if canImport(SwiftUI)
    import JarvisInspector
    import SwiftUI

    /// One row as the model decided it: name, type, shortened value and its marks.
    struct PanelRowView: View {
        let row: InspectorRow

        var body: some View {
            VStack(alignment: .leading, spacing: 2) {
                HStack(alignment: .firstTextBaseline) {
                    Text(row.title)
                        .font(.body.monospaced())
                        .lineLimit(1)
                        .truncationMode(.middle)
                    Spacer(minLength: 8)
                    if let type = row.type {
                        Text(type.rawValue).font(.caption).foregroundStyle(.secondary)
                    } else if let count = row.count {
                        Text("\(count)").font(.caption).foregroundStyle(.secondary)
                    }
                }
                if !row.preview.isEmpty {
                    Text(row.preview)
                        .font(.callout.monospaced())
                        .foregroundStyle(row.has(.unset) || row.has(.masked) ? .secondary : .primary)
                        .lineLimit(2)
                }
                if let problem = row.problem {
                    Label(problem, systemImage: "exclamationmark.triangle")
                        .font(.caption)
                        .foregroundStyle(.red)
                }
                if let warning = row.sizeWarning {
                    Label(warning, systemImage: "externaldrive.badge.exclamationmark")
                        .font(.caption)
                        .foregroundStyle(.orange)
                }
                let marks = row.labels
                if !marks.isEmpty {
                    Text(marks.joined(separator: " · "))
                        .font(.caption2)
                        .foregroundStyle(.secondary)
                }
            }
            .padding(.vertical, 2)
            .listRowBackground(row.has(.changed) ? Color.yellow.opacity(0.25) : nil)
            .accessibilityElement(children: .combine)
            .accessibilityLabel(accessibilityText)
        }

        private var accessibilityText: String {
            var parts = [row.title]
            if let type = row.type { parts.append(type.rawValue) }
            if row.has(.masked) {
                parts.append("secret, hidden")
            } else if !row.preview.isEmpty {
                parts.append(row.preview)
            }
            if row.has(.unset) { parts.append("not set") }
            if row.has(.readOnly) { parts.append("read-only") }
            if row.has(.changed) { parts.append("just changed") }
            if let problem = row.problem { parts.append("problem: \(problem)") }
            if let warning = row.sizeWarning { parts.append(warning) }
            return parts.joined(separator: ", ")
        }
    }

    /// The banner shown above everything when the agent allows no edits.
    struct ReadOnlyBanner: View {
        let text: String

        var body: some View {
            Label(text, systemImage: "lock.fill")
                .font(.footnote.weight(.semibold))
                .foregroundStyle(Color(PanelColor.readOnlyText))
                .padding(.horizontal, 12)
                .padding(.vertical, 6)
                .frame(maxWidth: .infinity)
                // 5.6:1 against the white text (the model's test holds it to 4.5:1); the
                // system orange was about 2.2:1.
                .background(Color(PanelColor.readOnlyBackground))
                .accessibilityLabel("Read-only: \(text)")
        }
    }

    extension Color {
        /// A colour the model chose, in sRGB.
        init(_ color: PanelColor) {
            self.init(.sRGB, red: color.red, green: color.green, blue: color.blue, opacity: 1)
        }
    }

    /// What a list shows when it has nothing, or when loading failed.
    struct PanelEmptyView: View {
        let title: String
        let message: String
        var systemImage = "tray"
        var retry: (() -> Void)?

        var body: some View {
            VStack(spacing: 12) {
                Image(systemName: systemImage).font(.largeTitle).foregroundStyle(.secondary)
                Text(title).font(.headline)
                Text(message).font(.callout).foregroundStyle(.secondary).multilineTextAlignment(.center)
                if let retry {
                    Button("Try again", action: retry).minimumTapTarget()
                }
            }
            .padding()
            .frame(maxWidth: .infinity)
            .accessibilityElement(children: .combine)
        }
    }
#endif
