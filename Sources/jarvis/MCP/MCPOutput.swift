import Foundation
import JarvisCore
import JarvisRemote

/// Writes the lines of the agent's codec (``RPCResponse``) to standard output, from any thread.
///
/// Standard output carries nothing else: logs go to standard error (``log(_:)``), because an
/// MCP client reads every stdout line as a message.
final class MCPOutput: Sendable {
    private let lock = Locked<Void>(())
    private let descriptor: Int32

    init(descriptor: Int32 = STDOUT_FILENO) {
        self.descriptor = descriptor
    }

    /// Sends one message (a line of ``RPCResponse``); when the client has gone (a closed pipe)
    /// the server ends.
    func send(_ message: [UInt8]) {
        var bytes = message
        bytes.append(0x0A)
        let written = lock.withLock { _ in Self.writeAll(bytes, to: descriptor) }
        if !written {
            log("the client closed standard output; stopping")
            exit(0)
        }
    }

    /// The answer to a request.
    func answer(_ id: JSONValue, result: JSONValue) {
        send(RPCResponse.success(id: id, result: result))
    }

    /// An error answer.
    func answer(_ id: JSONValue, error: RPCError) {
        send(RPCResponse.failure(id: id, error: error))
    }

    /// A notification.
    func notify(_ method: String, _ params: JSONObject = [:]) {
        send(RPCResponse.notification(method: method, params: params))
    }

    /// A line on standard error.
    func log(_ text: String) {
        FileHandle.standardError.write(Data(("jarvis mcp: " + text + "\n").utf8))
    }

    private static func writeAll(_ bytes: [UInt8], to descriptor: Int32) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let count = bytes[offset...].withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { return false }
            offset += count
        }
        return true
    }
}
