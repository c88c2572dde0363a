import Foundation
import JarvisTransport

#if canImport(Glibc)
    import Glibc
#endif

// Helpers shared by the test targets (not shipped in any product).

/// A fresh folder with a short path (Unix socket paths must stay under 104–108 bytes).
package final class TemporaryFolder {
    package let path: String

    package init() throws {
        var template = Array("/tmp/jvr.XXXXXX".utf8CString)
        guard let created = mkdtemp(&template) else {
            throw SocketError(operation: "mkdtemp", errno: errno)
        }
        path = String(decoding: UnsafeRawBufferPointer(start: created, count: strlen(created)), as: UTF8.self)
    }

    package func socketPath(_ name: String = "a.sock") -> String {
        "\(path)/\(name)"
    }

    deinit {
        try? FileManager.default.removeItem(atPath: path)
    }
}

/// Polls `condition` until it holds or `timeout` passes.
package func eventually(timeout: Duration = .seconds(5), _ condition: () -> Bool) -> Bool {
    let deadline = ContinuousClock.now + timeout
    while ContinuousClock.now < deadline {
        if condition() { return true }
        Thread.sleep(forTimeInterval: 0.01)
    }
    return condition()
}

extension LineClient {
    package func send(_ text: String) throws {
        try send(Array(text.utf8))
    }

    package func receiveText(timeout: Duration = .seconds(5)) throws -> String? {
        try receiveLine(timeout: timeout).map { String(decoding: $0, as: UTF8.self) }
    }
}
