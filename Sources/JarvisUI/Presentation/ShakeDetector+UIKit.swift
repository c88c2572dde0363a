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

    /// Calls `shaken` with its own window when that window hears a shake: on an iPad with two
    /// windows of the app, only the one shaken opens a panel (the key window may be the other).
    struct ShakeDetector: UIViewRepresentable {
        let shaken: @MainActor (UIWindow) -> Void

        func makeUIView(context: Context) -> ShakeListeningView {
            ShakeHook.install()
            let view = ShakeListeningView()
            view.isUserInteractionEnabled = false
            view.isAccessibilityElement = false
            view.shaken = shaken
            return view
        }

        func updateUIView(_ view: ShakeListeningView, context: Context) {
            view.shaken = shaken
        }

        /// A view that hears the shakes of the window it is in, and of no other.
        final class ShakeListeningView: UIView {
            var shaken: (@MainActor (UIWindow) -> Void)?
            private var observer: (any NSObjectProtocol)?

            override func didMoveToWindow() {
                super.didMoveToWindow()
                if let observer { NotificationCenter.default.removeObserver(observer) }
                observer = nil
                guard let window else { return }
                observer = NotificationCenter.default.addObserver(
                    forName: ShakeHook.notification, object: window, queue: .main
                ) { [weak self] _ in
                    MainActor.assumeIsolated {
                        guard let self, let window = self.window else { return }
                        self.shaken?(window)
                    }
                }
            }
        }
    }

    extension JarvisPanel {
        /// Presents the panel from a UIKit view controller, for apps without SwiftUI screens.
        ///
        /// It presents from the top of `presenter`'s window — over the app's own sheets,
        /// alerts and full-screen covers — and closes its session when dismissed by any means
        /// (Done, a swipe down, or the presenter going away). A swipe down over an unsaved edit
        /// asks before discarding it.
        /// - Parameters:
        ///   - agent: the agent this app started.
        ///   - presenter: a view controller of the window to present in; it must be in a
        ///     window (present from `viewDidAppear` at the earliest).
        /// - Returns: nil when the panel is presented, else why it was not (it is already
        ///   open in that window, or `presenter` is in no window).
        @MainActor @discardableResult
        public static func present(agent: JarvisAgent, from presenter: UIViewController) -> String? {
            guard let window = presenter.viewIfLoaded?.window else {
                return PanelPresenterChoice.Refusal.noController.message
            }
            return PanelPresenter.present(makeSource: { InProcessSource(agent: agent) }, in: window)
        }
    }
#endif
