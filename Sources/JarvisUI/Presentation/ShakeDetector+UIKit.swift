#if canImport(SwiftUI) && canImport(UIKit) && os(iOS)
    import JarvisInspector
    import JarvisRemote
    import SwiftUI
    import UIKit

    /// A view that hears the shake gesture (motion events reach the first responder).
    struct ShakeDetector: UIViewControllerRepresentable {
        let shaken: @MainActor () -> Void

        func makeUIViewController(context: Context) -> ShakeViewController {
            let controller = ShakeViewController()
            controller.shaken = shaken
            return controller
        }

        func updateUIViewController(_ controller: ShakeViewController, context: Context) {
            controller.shaken = shaken
        }
    }

    /// Becomes first responder so `motionEnded` reaches it.
    final class ShakeViewController: UIViewController {
        var shaken: (@MainActor () -> Void)?

        override var canBecomeFirstResponder: Bool { true }

        override func viewDidAppear(_ animated: Bool) {
            super.viewDidAppear(animated)
            becomeFirstResponder()
        }

        override func motionEnded(_ motion: UIEvent.EventSubtype, with event: UIEvent?) {
            if motion == .motionShake { shaken?() }
            super.motionEnded(motion, with: event)
        }
    }

    extension JarvisPanel {
        /// Presents the panel from a UIKit view controller, for apps without SwiftUI screens.
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
