#if canImport(SwiftUI) && canImport(AppKit) && os(macOS)
    import AppKit
    import JarvisRemote
    import SwiftUI

    extension JarvisPanel {
        /// Opens the panel in a window of its own, for AppKit apps.
        /// - Parameter agent: the agent this app started.
        /// - Returns: the window, which the caller may keep to close it later.
        @MainActor @discardableResult
        public static func openWindow(agent: JarvisAgent) -> NSWindow {
            let window = NSWindow(contentViewController: NSHostingController(rootView: JarvisPanel(agent: agent)))
            window.title = "Jarvis"
            window.setContentSize(NSSize(width: 720, height: 560))
            window.makeKeyAndOrderFront(nil)
            return window
        }
    }
#endif
