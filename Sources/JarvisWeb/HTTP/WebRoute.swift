/// Every route of the page's server, under its random root (``WebGuard/root``): the one table
/// ``WebRouter`` dispatches by, and the one docs/WEB.md lists (`WebRouteTests` compares them,
/// so no route goes undocumented). Nothing but an intent changes a page.
enum WebRoute: String, CaseIterable, Sendable {
    /// The page itself (`index.html`); with `?k=SECRET` the one-time secret is traded for the
    /// session cookie first (``WebGuard``).
    case page
    /// One of the page's files (scripts, style, icon).
    case file
    /// One live stream of server-sent events for several pages of a browser.
    case stream
    /// Opens a page: its id and first view.
    case openPage
    /// One intent of a page (``WebIntent``); answers its new view.
    case intent
    /// A window of a page's table.
    case rows
    /// The live stream of one page alone (a browser without BroadcastChannel or Web Locks).
    case events
    /// Closes a page at once: its tab went (`pagehide`).
    case closePage

    /// The methods the route answers; `HEAD` answers the head of a `GET` without its body.
    var methods: [String] {
        switch self {
        case .page, .file: ["GET", "HEAD"]
        case .stream, .rows, .events: ["GET"]
        case .openPage, .intent, .closePage: ["POST"]
        }
    }

    /// The path under the root, as the documentation writes it.
    var pattern: String {
        switch self {
        case .page: "/"
        case .file: "/{file}"
        case .stream: "/api/stream?pages={page},{page}…"
        case .openPage: "/api/pages"
        case .intent: "/api/pages/{page}/intent"
        case .rows: "/api/pages/{page}/rows?from={n}&count={n}"
        case .events: "/api/pages/{page}/events"
        case .closePage: "/api/pages/{page}/close"
        }
    }

    /// The route of a path's parts under the root (`api`, `pages`, `ID`, `rows`), and the
    /// page it names; nil for a path no route serves.
    static func match(_ parts: [String]) -> (route: WebRoute, page: String?)? {
        guard let first = parts.first else { return (.page, nil) }
        guard first == "api" else { return (.file, nil) }
        switch parts.dropFirst().first {
        case "stream" where parts.count == 2: return (.stream, nil)
        case "pages" where parts.count == 2: return (.openPage, nil)
        case "pages" where parts.count == 4:
            switch parts[3] {
            case "intent": return (.intent, parts[2])
            case "rows": return (.rows, parts[2])
            case "events": return (.events, parts[2])
            case "close": return (.closePage, parts[2])
            default: return nil
            }
        default: return nil
        }
    }
}
