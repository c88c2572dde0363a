import Foundation
import JarvisTransport

/// A TCP server on 127.0.0.1 that sends back every byte it reads, one thread per connection,
/// until ``stop()``: the far end of a tunnel under test.
package final class EchoServer: Sendable {
    /// The port it got.
    package let port: UInt16
    private let loop: AcceptLoop

    /// Listens on a free port of 127.0.0.1.
    package init() throws {
        let listener = try Socket.listen(on: .tcp(host: "127.0.0.1", port: 0))
        port = listener.boundPort ?? 0
        loop = AcceptLoop(listener) { socket in
            var buffer = [UInt8](repeating: 0, count: 4096)
            while true {
                let count = buffer.withUnsafeMutableBytes { (try? socket.read(into: $0)) ?? 0 }
                guard count > 0, (try? socket.writeAll(Array(buffer[..<count]), timeout: .seconds(5))) != nil
                else { break }
            }
            socket.shutdown()
        }
    }

    deinit { stop() }

    /// Stops accepting and ends every connection. Idempotent.
    package func stop() { loop.stop() }
}
