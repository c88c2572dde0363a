#if canImport(SwiftUI) && canImport(UIKit) && os(iOS)
    import JarvisCore
    import JarvisInspector
    import SwiftUI
    import UIKit

    /// The hosting controller of a presented panel, so a second shake knows it is showing.
    final class PanelHostingController: UIHostingController<AnyView> {}

    /// Presents one panel from the top of a window's presentation chain and closes its session
    /// however it goes away.
    ///
    /// It is the presentation controller's delegate (UIKit holds delegates weakly; the panel's
    /// Done button holds this object, so it lives exactly as long as the panel):
    /// `presentationControllerDidDismiss` closes the session after a swipe down, and
    /// `presentationControllerShouldDismiss` / `presentationControllerDidAttemptToDismiss`
    /// keep an unsaved edit from being swiped away without asking.
    @MainActor
    final class PanelPresenter: NSObject, UIAdaptivePresentationControllerDelegate {
        private weak var host: PanelHostingController?
        private var store: PanelStore?

        /// Presents the panel in `window` from the top-most presented controller; the source
        /// is made off the main thread.
        /// - Returns: nil when presenting, else why it cannot (``PanelPresenterChoice``).
        @discardableResult
        static func present(makeSource: @escaping @Sendable () throws -> any InspectorSource, in window: UIWindow)
            -> String?
        {
            var chain: [UIViewController] = []
            var next = window.rootViewController
            while let controller = next {
                chain.append(controller)
                next = controller.presentedViewController
            }
            let links = chain.map {
                PanelPresenterChoice.Link(isBeingDismissed: $0.isBeingDismissed, isPanel: $0 is PanelHostingController)
            }
            switch PanelPresenterChoice.choose(links) {
            case .refused(let refusal):
                return refusal.message
            case .present(let index):
                let presenter = PanelPresenter()
                presenter.open(makeSource: makeSource, from: chain[index])
                return nil
            }
        }

        private func open(makeSource: @escaping @Sendable () throws -> any InspectorSource, from base: UIViewController)
        {
            let host = PanelHostingController(rootView: AnyView(ProgressView()))
            host.presentationController?.delegate = self
            self.host = host
            base.present(host, animated: true)
            Task { @MainActor in
                let made = await Task.detached { () -> Result<any InspectorSource, any Error> in
                    Result { try makeSource() }
                }.value
                self.show(made)
            }
        }

        private func show(_ made: Result<any InspectorSource, any Error>) {
            guard let host else {
                // Dismissed while the source was being made.
                if case .success(let source) = made { source.close() }
                return
            }
            switch made {
            case .success(let source):
                let store = PanelStore(source: source)
                self.store = store
                host.rootView = AnyView(JarvisPanel(store: store, close: { self.dismiss() }))
            case .failure(let error):
                let message = (error as? JarvisError)?.message ?? error.localizedDescription
                host.rootView = AnyView(
                    VStack {
                        PanelEmptyView(
                            title: "Cannot open Jarvis", message: message, systemImage: "exclamationmark.triangle")
                        Button("Close") { self.dismiss() }.minimumTapTarget()
                    })
            }
        }

        /// Done, or Discard after a swipe down was held back.
        private func dismiss() {
            host?.presentingViewController?.dismiss(animated: true)
            closeSession()
        }

        private func closeSession() {
            store?.close()
            store = nil
        }

        func presentationControllerShouldDismiss(_ presentationController: UIPresentationController) -> Bool {
            !(store?.hasUnsavedEdit ?? false)
        }

        func presentationControllerDidAttemptToDismiss(_ presentationController: UIPresentationController) {
            guard let host else { return }
            let ask = UIAlertController(
                title: "Discard the unsaved edit?", message: "The value you typed has not been saved.",
                preferredStyle: .alert)
            ask.addAction(UIAlertAction(title: "Keep Editing", style: .cancel))
            ask.addAction(UIAlertAction(title: "Discard", style: .destructive) { [weak self] _ in self?.dismiss() })
            (host.presentedViewController ?? host).present(ask, animated: true)
        }

        func presentationControllerDidDismiss(_ presentationController: UIPresentationController) {
            closeSession()
        }
    }
#endif
