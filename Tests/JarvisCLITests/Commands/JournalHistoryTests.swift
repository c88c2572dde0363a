import Foundation
import JarvisCore
import JarvisRemote
import Testing

@testable import jarvis

/// `jarvis history` lines of the journal fit 80 columns whatever the names and values, and
/// never show a secret's value.
@Suite struct JournalHistoryTests {
    private func entry(key: String, before: Wire.JournalValue?, after: Wire.JournalValue?, client: String?) throws
        -> Wire.JournalEntry
    {
        var object: JSONObject = [
            "id": 123456, "time": "2026-11-28T10:00:00Z", "action": "set", "scanner": "files",
            "container": "app.json", "key": .string(key), "undoable": true,
        ]
        if let before { object["before"] = before.json }
        if let after { object["after"] = after.json }
        if let client {
            object["client"] = .string(client)
            object["transport"] = "unix"
        }
        return try Wire.JournalEntry(json: .object(object))
    }

    @Test func everyLineFitsEightyColumns() throws {
        let long = String(repeating: "k", count: 200)
        let value = Wire.JournalValue(type: .string, value: .string(String(repeating: "v", count: 500)))
        let cases = [
            try entry(key: long, before: value, after: value, client: String(repeating: "c", count: 100)),
            try entry(key: "theme", before: nil, after: value, client: nil),
            try entry(key: "t", before: Wire.JournalValue(type: .string, value: nil), after: nil, client: "cli"),
        ]
        for entry in cases {
            let line = JournalHistory.line(entry)
            #expect(line.count <= 80, "\(line.count): \(line)")
        }
        #expect(JournalHistory.line(cases[1]).contains("outside"))
        #expect(JournalHistory.line(cases[2]).contains("••••"), "a secret's value is masked")
    }
}
