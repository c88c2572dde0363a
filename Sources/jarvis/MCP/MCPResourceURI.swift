import Foundation

/// The address of one container as an MCP resource: `jarvis://AGENT/SCANNER/CONTAINER`, each
/// part percent-encoded (a container such as `env/prod.json` becomes `env%2Fprod.json`).
struct MCPResourceURI: Sendable, Hashable, CustomStringConvertible {
    /// The agent's name, or its pid when several served agents share the name.
    var agent: String
    /// The scanner id.
    var scanner: String
    /// The container's name.
    var container: String

    /// The URI scheme.
    static let scheme = "jarvis://"
    /// The RFC 6570 template `resources/templates/list` offers.
    static let template = "jarvis://{agent}/{scanner}/{container}"

    init(agent: String, scanner: String, container: String) {
        self.agent = agent
        self.scanner = scanner
        self.container = container
    }

    /// Reads a URI; nil when it is not of this form.
    init?(parsing text: String) {
        guard text.hasPrefix(Self.scheme) else { return nil }
        let parts = text.dropFirst(Self.scheme.count).split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 3, let agent = Self.decode(parts[0]), let scanner = Self.decode(parts[1]),
            let container = Self.decode(parts[2]), !agent.isEmpty, !scanner.isEmpty, !container.isEmpty
        else { return nil }
        self.init(agent: agent, scanner: scanner, container: container)
    }

    /// The URI text.
    var description: String {
        Self.scheme + [agent, scanner, container].map(Self.encode).joined(separator: "/")
    }

    /// Percent-encodes everything but RFC 3986's unreserved characters.
    static func encode(_ text: String) -> String {
        var result = ""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
                UInt8(ascii: "~"):
                result.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                let hex = Array("0123456789ABCDEF")
                result += "%" + String(hex[Int(byte >> 4)]) + String(hex[Int(byte & 0x0F)])
            }
        }
        return result
    }

    /// Decodes `%XX` escapes; nil for a malformed escape or bytes that are not UTF-8.
    static func decode(_ text: Substring) -> String? {
        var bytes: [UInt8] = []
        var index = text.utf8.startIndex
        let utf8 = text.utf8
        while index < utf8.endIndex {
            let byte = utf8[index]
            if byte == UInt8(ascii: "%") {
                let high = utf8.index(after: index)
                guard high < utf8.endIndex else { return nil }
                let low = utf8.index(after: high)
                guard low < utf8.endIndex, let value = UInt8(String(text[high...low]), radix: 16) else { return nil }
                bytes.append(value)
                index = utf8.index(after: low)
            } else {
                bytes.append(byte)
                index = utf8.index(after: index)
            }
        }
        return String(bytes: bytes, encoding: .utf8)
    }

    /// The container name as a glob that matches only itself, for `list` and `watch`.
    var containerGlob: String {
        var glob = ""
        for character in container {
            if "*?[]\\".contains(character) { glob.append("\\") }
            glob.append(character)
        }
        return glob
    }
}
