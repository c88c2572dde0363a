import Foundation

/// Who an agent is, as `hello` and the discovery file report it.
package struct AgentIdentity: Sendable, Hashable {
    package var name: String
    package var pid: Int32
    package var platform: String

    package init(name: String) {
        self.name = name
        pid = ProcessInfo.processInfo.processIdentifier
        platform = Self.currentPlatform
    }

    package static var currentPlatform: String {
        #if os(macOS)
            "macOS"
        #elseif os(iOS)
            "iOS"
        #elseif os(tvOS)
            "tvOS"
        #elseif os(watchOS)
            "watchOS"
        #elseif os(visionOS)
            "visionOS"
        #elseif os(Linux)
            "Linux"
        #else
            "unknown"
        #endif
    }
}
