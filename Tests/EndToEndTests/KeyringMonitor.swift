import Foundation

/// `dbus-monitor` on a ``KeyringSession``'s bus, watching the Secret Service calls, so a test
/// can count what a real agent asked the real keyring. Ends with the object.
final class KeyringMonitor {
    /// One Secret Service search.
    struct Search: Equatable {
        /// The attributes it matched; empty for a search of every item.
        var attributes: [String: String] = [:]
    }

    private let keyring: KeyringSession
    private let process = Process()
    private let output: URL
    private var consumed = 0
    private var marks = 0

    static let tool = "dbus-monitor"

    /// Starts the monitor and waits until it sees calls.
    init(keyring: KeyringSession, root: URL) throws {
        self.keyring = keyring
        output = root.appendingPathComponent("dbus-monitor.log")
        _ = FileManager.default.createFile(atPath: output.path, contents: nil)
        process.executableURL = URL(
            fileURLWithPath: KeyringSession.path(of: Self.tool) ?? "/usr/bin/\(Self.tool)")
        process.arguments = [
            "--session", "type='method_call',interface='org.freedesktop.Secret.Collection'",
            "type='method_call',interface='org.freedesktop.Secret.Service'",
            "type='method_call',interface='org.freedesktop.Secret.Item'",
        ]
        process.environment = keyring.environment
        process.standardOutput = try FileHandle(forWritingTo: output)
        process.standardError = FileHandle.nullDevice
        try process.run()
        _ = try searchesUntilMark()
    }

    deinit {
        // Children of a test process inherit its blocked signals: end the monitor with SIGKILL.
        kill(process.processIdentifier, SIGKILL)
    }

    /// The searches made since the last call (the monitor's own marks left out): a search
    /// for a fresh mark is sent with `secret-tool`, and everything the bus routed before it
    /// is in the monitor's output once the mark is.
    func searchesUntilMark() throws -> [Search] {
        marks += 1
        let mark = "jarvis-mark-\(marks)"
        let deadline = Date().addingTimeInterval(30)
        while Date() < deadline {
            // Each lookup is a new search; the first ones may come before the monitor listens.
            try keyring.secretTool(["lookup", "mark", mark])
            let text = String(decoding: (try? Data(contentsOf: output)) ?? Data(), as: UTF8.self)
            guard
                let end = text.range(
                    of: "\"\(mark)\"", range: text.index(text.startIndex, offsetBy: consumed)..<text.endIndex)
            else { continue }
            let segment = String(text[text.index(text.startIndex, offsetBy: consumed)..<end.upperBound])
            consumed = text.distance(from: text.startIndex, to: end.upperBound)
            return Self.searches(in: segment).filter { $0.attributes["mark"] == nil }
        }
        throw HarnessError("dbus-monitor did not show the mark \(mark) within 30 s")
    }

    /// How much the monitor has written so far: pass it to ``sawCall(since:)``.
    var written: Int { (try? Data(contentsOf: output).count) ?? 0 }

    /// Whether the monitor saw a Secret Service call after `offset` bytes of its output.
    func sawCall(since offset: Int) -> Bool {
        let data = (try? Data(contentsOf: output)) ?? Data()
        guard data.count > offset else { return false }
        return String(decoding: data[offset...], as: UTF8.self).contains("method call")
    }

    /// The `SearchItems` calls in dbus-monitor's text: each message starts at the line's start,
    /// its arguments follow indented (a search's attributes as name, value, name, value…).
    static func searches(in text: String) -> [Search] {
        var found: [[String]] = []
        var current: [String]?
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if !line.hasPrefix(" ") {
                if let current { found.append(current) }
                current = line.contains("member=SearchItems") ? [] : nil
                continue
            }
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if current != nil, trimmed.hasPrefix("string \"") {
                current?.append(String(trimmed.dropFirst("string \"".count).dropLast()))
            }
        }
        if let current { found.append(current) }
        return found.map { flat in
            var search = Search()
            for index in stride(from: 0, to: flat.count - 1, by: 2) { search.attributes[flat[index]] = flat[index + 1] }
            return search
        }
    }
}
