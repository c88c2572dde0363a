#if canImport(SwiftUI) && canImport(AppKit) && os(macOS)
    import AppKit
    import JarvisRemote
    import SwiftUI

    extension JarvisPanel {
        /// Opens the panel in a window of its own, for AppKit apps.
        ///
        /// The window is not released when closed (a window made in code is, by default, which
        /// would leave the caller's reference dangling): keep it to show it again with
        /// `makeKeyAndOrderFront(_:)`; the panel's session lives as long as the window does.
        /// - Parameter agent: the agent this app started.
        /// - Returns: the window.
        @MainActor @discardableResult
        public static func openWindow(agent: JarvisAgent) -> NSWindow {
            let window = NSWindow(contentViewController: NSHostingController(rootView: JarvisPanel(agent: agent)))
            window.isReleasedWhenClosed = false
            window.title = "Jarvis"
            window.setContentSize(NSSize(width: 760, height: 620))
            window.contentMinSize = NSSize(width: 640, height: 480)
            window.setFrameAutosaveName("JarvisPanel")
            window.makeKeyAndOrderFront(nil)
            return window
        }
    }
#endif
