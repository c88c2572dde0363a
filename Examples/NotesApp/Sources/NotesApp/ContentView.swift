#if canImport(SwiftUI)
    import SwiftUI

    /// The app's settings, as any app keeps them: `@AppStorage` over `UserDefaults.standard`.
    /// Nothing here knows about Jarvis.
    struct ContentView: View {
        @AppStorage("user_name") private var userName = ""
        @AppStorage("theme") private var theme = "system"
        @AppStorage("font_size") private var fontSize = 17.0
        @AppStorage("sync_enabled") private var syncEnabled = true
        @AppStorage("launch_count") private var launchCount = 0
        @State private var notes = ["Buy milk", "Call Ada", "Read the Jarvis guide"]

        var body: some View {
            NavigationStack {
                List {
                    Section("Notes") {
                        ForEach(notes, id: \.self) { Text($0).font(.system(size: fontSize)) }
                    }
                    Section("Settings") {
                        TextField("Your name", text: $userName)
                        Picker("Theme", selection: $theme) {
                            ForEach(["light", "dark", "system"], id: \.self) { Text($0).tag($0) }
                        }
                        Stepper("Font size \(Int(fontSize))", value: $fontSize, in: 12...28)
                        Toggle("Sync", isOn: $syncEnabled)
                    }
                }
                .navigationTitle(userName.isEmpty ? "Notes" : "\(userName)'s notes")
            }
            .preferredColorScheme(theme == "dark" ? .dark : theme == "light" ? .light : nil)
            .onAppear { launchCount += 1 }
        }
    }
#endif
