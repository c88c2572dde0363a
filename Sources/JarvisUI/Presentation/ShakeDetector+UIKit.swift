#if canImport(SwiftUI) && canImport(UIKit) && os(iOS)
    import JarvisInspector
    import JarvisRemote
    import ObjectiveC
    import SwiftUI
    import UIKit

    /// Hears the shake gesture without taking anyone's focus.
    ///
    /// UIKit sends a shake to the first responder and up its chain to the window (UIKit's
    /// "Using responders and the responder chain to handle events"). A hidden view that made
    /// itself first responder stole the host's focus and went deaf as soon as a text field or a
    /// dismissed sheet took first responder from it. Instead, the window's `motionEnded` is
    /// wrapped once — the first time an app turns the panel on — to post
    /// ``ShakeHook/notification`` and then run the implementation it had (the host's own
    /// override included), so every responder keeps what it had.
    @MainActor
    enum ShakeHook {
        /// Posted with the window that heard a shake.
        static let notification = Notification.Name("JarvisUI.windowShaken")
        private static var installed = false

        /// Wraps `UIWindow.motionEnded(_:with:)`; later calls do nothing.
        static func install() {
            guard !installed else { return }
            installed = true
            let selector = #selector(UIResponder.motionEnded(_:with:))
            guard let method = class_getInstanceMethod(UIWindow.self, selector) else { return }
            typealias MotionEnded = @convention(c) (AnyObject, Selector, UIEvent.EventSubtype, UIEvent?) -> Void
            let previous = unsafeBitCast(method_getImplementation(method), to: MotionEnded.self)
            let wrapper: @convention(block) (AnyObject, UIEvent.EventSubtype, UIEvent?) -> Void = { window, motion, event in
                if motion == .motionShake {
                    NotificationCenter.default.post(name: notification, object: window)
                }
                previous(window, selector, motion, event)
            }
            let implementation = imp_implementationWithBlock(wrapper)
            // UIWindow may only inherit the method: add it there, leaving UIResponder's as it is.
            if !class_addMethod(UIWindow.self, selector, implementation, method_getTypeEncoding(method)) {
                method_setImplementation(method, implementation)
            }
        }
    }

    /// Calls `shaken` when the key window hears a shake.
    struct ShakeDetector: View {
        let shaken: @MainActor () -> Void

        var body: some View {
            Color.clear
                .onAppear { ShakeHook.install() }
                .onReceive(NotificationCenter.default.publisher(for: ShakeHook.notification)) { note in
                    guard (note.object as? UIWindow)?.isKeyWindow ?? true else { return }
                    shaken()
                }
        }
    }

    extension JarvisPanel {
        /// Presents the panel from a UIKit view controller, for apps without SwiftUI screens.
        /// The panel closes its session when it is dismissed.
        /// - Parameters:
        ///   - agent: the agent this app started.
        ///   - presenter: the view controller to present from.
        @MainActor
        public static func present(agent: JarvisAgent, from presenter: UIViewController) {
            let host = UIHostingController(rootView: AnyView(EmptyView()))
            host.rootView = AnyView(JarvisPanel(agent: agent, close: { [weak host] in host?.dismiss(animated: true) }))
            presenter.present(host, animated: true)
        }
    }
#endif
