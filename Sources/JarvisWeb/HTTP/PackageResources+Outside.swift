// SwiftPM generates `PackageResources` (the page's bytes, from `resources: [.embedInCode("Page")]`)
// and defines one of these two conditions in every module it builds. A compiler run outside
// SwiftPM, such as the Apple SDK type-check of the package's sources, sees neither and no
// generated file: it gets an empty page, so that the server around it is still checked.
#if !SWIFT_MODULE_RESOURCE_BUNDLE_AVAILABLE && !SWIFT_MODULE_RESOURCE_BUNDLE_UNAVAILABLE
    enum PackageResources {
        static let index_html: [UInt8] = []
        static let style_css: [UInt8] = []
        static let app_js: [UInt8] = []
        static let api_js: [UInt8] = []
        static let dom_js: [UInt8] = []
        static let table_js: [UInt8] = []
        static let detail_js: [UInt8] = []
        static let dialogs_js: [UInt8] = []
        static let compare_js: [UInt8] = []
        static let favicon_svg: [UInt8] = []
    }
#endif
