import Foundation
import JarvisCore
import JarvisTransport

/// A raw connection to an agent that writes lines as given and reads whole answers: for
/// tests that need exact bytes on the wire and several clients at once.
struct RawAgentClient {
    let socket: Socket
    var reader: LineReader

    init(_ agent: AgentProcess) throws {
        socket = try agent.socket()
        reader = LineReader(socket)
    }

    /// Sends `text` (ending in `\n`) and reads the next line as JSON.
    mutating func ask(_ text: String, timeout: Duration = .seconds(5)) throws -> JSONValue? {
        socket.send(text)
        return try reader.nextJSON(timeout: timeout)
    }
}

/// Waits until `condition` holds, checking every 20 ms; throws naming `what` after `seconds`.
func waitUntil(_ what: @autoclosure () -> String, within seconds: Double = 20, _ condition: () -> Bool) throws {
    let deadline = Date().addingTimeInterval(seconds)
    while Date() < deadline {
        if condition() { return }
        Thread.sleep(forTimeInterval: 0.02)
    }
    throw HarnessError("waited \(seconds) s for: \(what())")
}
