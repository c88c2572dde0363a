/// Which view controller of a window's presentation chain presents the panel, or why none can.
///
/// UIKit presents one controller at a time from each controller: presenting from a controller
/// that already presents something (a host's sheet, alert or full-screen cover) fails. The
/// panel therefore presents from the top of the chain — the root, then each
/// `presentedViewController` in turn — skipping a controller on its way out, and refuses with
/// a reason when the panel is already showing or there is nothing to present from. The UIKit
/// face reads the chain into ``Link`` values and presents from the index this returns.
public enum PanelPresenterChoice: Sendable, Hashable {
    /// Present from the controller at this index of the chain.
    case present(from: Int)
    /// Nothing can present: ``Refusal/message`` says why.
    case refused(Refusal)

    /// One controller of the chain, root first.
    public struct Link: Sendable, Hashable {
        /// It is on its way out (`isBeingDismissed`): presenting from it would fail.
        public var isBeingDismissed: Bool
        /// It is the panel itself.
        public var isPanel: Bool

        /// A link of the chain.
        public init(isBeingDismissed: Bool = false, isPanel: Bool = false) {
            self.isBeingDismissed = isBeingDismissed
            self.isPanel = isPanel
        }
    }

    /// Why the panel cannot be presented.
    public enum Refusal: String, Sendable, Hashable {
        /// The window has no root view controller (or the controller given is in no window).
        case noController
        /// The panel already shows in this window.
        case alreadyShowing

        /// What to tell the developer.
        public var message: String {
            switch self {
            case .noController:
                return "Jarvis cannot open: the view controller is in no window, or the window has no root view "
                    + "controller yet; present once the view has appeared (viewDidAppear)"
            case .alreadyShowing:
                return "Jarvis is already open in this window"
            }
        }
    }

    /// Chooses the presenter of a chain given root first, each later link presented by the
    /// one before it.
    public static func choose(_ chain: [Link]) -> PanelPresenterChoice {
        guard !chain.isEmpty else { return .refused(.noController) }
        if chain.contains(where: \.isPanel) { return .refused(.alreadyShowing) }
        // A controller being dismissed takes everything it presents with it: present from the
        // last one that stays.
        var index = chain.count - 1
        while index > 0, chain[index].isBeingDismissed { index -= 1 }
        return .present(from: index)
    }
}
