#if canImport(SwiftUI)
    #if canImport(UIKit) && (os(iOS) || os(visionOS))
        import UIKit
    #elseif canImport(AppKit) && os(macOS)
        import AppKit
    #endif

    /// The system pasteboard, where there is one.
    @MainActor
    enum Pasteboard {
        /// Whether this platform has a pasteboard to copy to.
        static var isAvailable: Bool {
            #if (canImport(UIKit) && (os(iOS) || os(visionOS))) || (canImport(AppKit) && os(macOS))
                return true
            #else
                return false
            #endif
        }

        /// Puts `text` on the pasteboard.
        static func copy(_ text: String) {
            #if canImport(UIKit) && (os(iOS) || os(visionOS))
                UIPasteboard.general.string = text
            #elseif canImport(AppKit) && os(macOS)
                NSPasteboard.general.clearContents()
                NSPasteboard.general.setString(text, forType: .string)
            #endif
        }
    }
#endif
