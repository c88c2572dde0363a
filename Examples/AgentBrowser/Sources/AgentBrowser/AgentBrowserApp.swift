#if canImport(SwiftUI) && os(macOS)
    import JarvisCore
    import JarvisInspector
    import JarvisRemote
    import JarvisUI
    import SwiftUI

    /// Lists the running agents in a sidebar and shows the Jarvis panel for the one chosen.
    @main
    struct AgentBrowserApp: App {
        var body: some Scene {
            WindowGroup("Jarvis Agents") {
                AgentBrowserView()
                    .frame(minWidth: 820, minHeight: 520)
            }
        }
    }
#elseif canImport(SwiftUI)
    import SwiftUI

    /// The browser is a Mac app; on iOS an app shows its own panel with `.jarvisPanel(agent:enabled:)`.
    @main
    struct AgentBrowserApp: App {
        var body: some Scene {
            WindowGroup {
                Text("Agent Browser runs on macOS. In an iOS app, use .jarvisPanel(agent:enabled:) instead.")
                    .padding()
            }
        }
    }
#else
    import Foundation

    /// Without SwiftUI (Linux) there is nothing to show: say so.
    @main
    enum AgentBrowserApp {
        static func main() {
            FileHandle.standardError.write(
                Data("AgentBrowser is a SwiftUI app for macOS; on Linux use `jarvis inspect`.\n".utf8))
            exit(69)
        }
    }
#endif
