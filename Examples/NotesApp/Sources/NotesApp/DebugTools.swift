// Everything Jarvis does in this app is in this file, and all of it is Debug only: a Release
// (App Store) build compiles none of it, so the agent never starts and the panel never opens.
#if DEBUG && canImport(SwiftUI)
    import Foundation
    import Jarvis
    import JarvisUI
    import SwiftUI

    /// The agent this Debug build runs, and whether the panel is on.
    struct DebugTools {
        /// The running agent; nil when it could not start (the app runs on without it).
        let agent: JarvisAgent?

        /// Starts the agent on the app's own defaults, with a catalog of the keys the app
        /// reads, so the panel shows unset keys with their defaults and offers the right editor.
        static func start() -> DebugTools {
            var configuration = JarvisConfiguration.debug
            configuration.catalog = KeyCatalog([
                KeyDefinition("user_name", in: "*", type: .string, default: "", description: "Shown in the title"),
                KeyDefinition(
                    "theme", in: "*", type: .string, default: "system", description: "Colour scheme",
                    allowedValues: ["light", "dark", "system"]),
                KeyDefinition("font_size", in: "*", type: .real, default: 17.0, description: "Note text size", range: 12...28),
                KeyDefinition("sync_enabled", in: "*", type: .boolean, default: true),
                KeyDefinition("launch_count", in: "*", type: .integer, default: 0, range: 0...1_000_000),
            ])
            do {
                return DebugTools(agent: try JarvisAgent.start(configuration: configuration))
            } catch {
                print("Jarvis did not start: \(error.message)")
                return DebugTools(agent: nil)
            }
        }
    }

    extension View {
        /// Shake the phone (⌥⌘J on a Mac) to open the panel.
        @ViewBuilder func debugTools(_ tools: DebugTools) -> some View {
            if let agent = tools.agent {
                jarvisPanel(agent: agent, enabled: true)
            } else {
                self
            }
        }
    }
#endif
