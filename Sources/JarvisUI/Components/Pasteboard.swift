#if canImport(SwiftUI)
    import Foundation
    import JarvisInspector
    #if canImport(UIKit) && (os(iOS) || os(visionOS))
        import UIKit
        import UniformTypeIdentifiers
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

        /// Puts `text` on the pasteboard under `policy` (``PanelCopyPolicy``).
        ///
        /// On iOS a local-only text stays off Universal Clipboard and the system removes it
        /// when it expires (`UIPasteboard.setItems(_:options:)` with `.localOnly` and
        /// `.expirationDate`). AppKit has neither option: on macOS such a text is marked
        /// concealed and transient (the nspasteboard.org types clipboard managers honour, so
        /// they neither show nor keep it) and cleared when it expires, unless something else
        /// was copied meanwhile.
        static func copy(_ text: String, policy: PanelCopyPolicy) {
            #if canImport(UIKit) && (os(iOS) || os(visionOS))
                var options: [UIPasteboard.OptionsKey: Any] = [:]
                if policy.isLocalOnly { options[.localOnly] = true }
                if let lifetime = policy.lifetime { options[.expirationDate] = Date(timeIntervalSinceNow: lifetime) }
                UIPasteboard.general.setItems([[UTType.utf8PlainText.identifier: text]], options: options)
            #elseif canImport(AppKit) && os(macOS)
                let board = NSPasteboard.general
                board.clearContents()
                board.setString(text, forType: .string)
                guard policy.isLocalOnly || policy.lifetime != nil else { return }
                board.setString("", forType: NSPasteboard.PasteboardType("org.nspasteboard.ConcealedType"))
                board.setString("", forType: NSPasteboard.PasteboardType("org.nspasteboard.TransientType"))
                guard let lifetime = policy.lifetime else { return }
                let written = board.changeCount
                Task { @MainActor in
                    try? await Task.sleep(for: .seconds(lifetime))
                    if NSPasteboard.general.changeCount == written { NSPasteboard.general.clearContents() }
                }
            #endif
        }
    }
#endif
