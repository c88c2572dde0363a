#if canImport(SwiftUI)
    import SwiftUI

    /// A small notes app whose settings live in `UserDefaults`. In Debug builds it starts the
    /// Jarvis agent and turns the panel on (shake the phone); a Release build compiles none of
    /// it (`DebugTools.swift` is all `#if DEBUG`).
    @main
    struct NotesApp: App {
        #if DEBUG
            @State private var debugTools = DebugTools.start()
        #endif

        var body: some Scene {
            WindowGroup {
                #if DEBUG
                    ContentView().debugTools(debugTools)
                #else
                    ContentView()
                #endif
            }
        }
    }
#else
    import Foundation

    /// Without SwiftUI (Linux) there is no app to show: say so.
    @main
    enum NotesApp {
        static func main() {
            FileHandle.standardError.write(
                Data("NotesApp is a SwiftUI app for iOS; open it in Xcode (docs/IOS.md).\n".utf8))
            exit(69)
        }
    }
#endif
