#if canImport(SwiftUI)
    import SwiftUI
    #if canImport(UIKit) && (os(iOS) || os(visionOS))
        import UIKit
    #elseif canImport(AppKit) && os(macOS)
        import AppKit
    #endif

    /// Says a message to VoiceOver: a saved, deleted or refused message shows only for a few
    /// seconds and may never be reached by swiping, so it is announced as it appears.
    @MainActor
    enum Announcer {
        /// Posts `text` as an announcement.
        static func announce(_ text: String) {
            if #available(iOS 17, macOS 14, visionOS 1, *) {
                AccessibilityNotification.Announcement(text).post()
                return
            }
            #if canImport(UIKit) && (os(iOS) || os(visionOS))
                UIAccessibility.post(notification: .announcement, argument: text)
            #elseif canImport(AppKit) && os(macOS)
                NSAccessibility.post(
                    element: NSApplication.shared as Any, notification: .announcementRequested,
                    userInfo: [
                        .announcement: text, .priority: NSAccessibilityPriorityLevel.high.rawValue,
                    ])
            #endif
        }
    }
#endif
