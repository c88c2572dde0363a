import Foundation

/// Who an agent is, as `hello` and the discovery file report it.
package struct AgentIdentity: Sendable, Hashable {
    package var name: String
    package var pid: Int32
    package var platform: String
    /// The host's bundle id where it has one, else its executable's name.
    package var program: String

    package init(name: String) {
        self.name = name
        program = Self.currentProgram
        pid = ProcessInfo.processInfo.processIdentifier
        platform = Self.currentPlatform
    }

    /// The host's bundle id where it has one, else its executable's name.
    package static var currentProgram: String {
        if let bundle = Bundle.main.bundleIdentifier, !bundle.isEmpty { return bundle }
        return ProcessInfo.processInfo.processName
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
