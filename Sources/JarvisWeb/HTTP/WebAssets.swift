/// The page's files, compiled into the binary from `Page/` (SwiftPM's `embedInCode`): plain
/// HTML, CSS and JavaScript modules, no build step, nothing fetched from the network.
enum WebAssets {
    /// One file and its content type.
    struct File: Sendable {
        var bytes: [UInt8]
        var type: String
    }

    /// The file served at `/name`; nil for any other name.
    static func file(named name: String) -> File? {
        switch name {
        case "index.html": File(bytes: PackageResources.index_html, type: "text/html; charset=utf-8")
        case "style.css": File(bytes: PackageResources.style_css, type: "text/css; charset=utf-8")
        case "app.js": File(bytes: PackageResources.app_js, type: "text/javascript; charset=utf-8")
        case "api.js": File(bytes: PackageResources.api_js, type: "text/javascript; charset=utf-8")
        case "dom.js": File(bytes: PackageResources.dom_js, type: "text/javascript; charset=utf-8")
        case "table.js": File(bytes: PackageResources.table_js, type: "text/javascript; charset=utf-8")
        case "detail.js": File(bytes: PackageResources.detail_js, type: "text/javascript; charset=utf-8")
        case "dialogs.js": File(bytes: PackageResources.dialogs_js, type: "text/javascript; charset=utf-8")
        case "compare.js": File(bytes: PackageResources.compare_js, type: "text/javascript; charset=utf-8")
        case "favicon.svg": File(bytes: PackageResources.favicon_svg, type: "image/svg+xml")
        default: nil
        }
    }
}
