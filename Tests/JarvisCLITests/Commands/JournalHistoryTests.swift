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
            for width in [80, 120, 160] {
                let line = JournalHistory.line(entry, width: width)
                #expect(line.count <= width, "\(line.count): \(line)")
            }
        }
        #expect(JournalHistory.line(cases[1], width: 80).contains("outside"))
        #expect(JournalHistory.line(cases[2], width: 80).contains("••••"), "a secret's value is masked")
    }

    /// In a wide terminal the key shows whole, and two long values show where they differ.
    @Test func aWideLineShowsTheKeyWholeAndWhereTheValuesDiffer() throws {
        func record(_ count: Int) -> Wire.JournalValue {
            let fields = (0..<12).map { "\"field\($0)\": \"some text \($0)\"" }.joined(separator: ", ")
            return Wire.JournalValue(type: .string, value: .string("{\(fields), \"count\": \(count), \"tail\": \"end of it\"}"))
        }
        let change = try entry(key: "workout_2024-01-15_morning", before: record(3), after: record(4), client: "jarvis-cli")
        let wide = JournalHistory.line(change, width: 160)
        #expect(wide.contains("workout_2024-01-15_morning"), "\(wide)")
        #expect(wide.contains("\"count\": 3") && wide.contains("\"count\": 4"), "\(wide)")
        #expect(wide.count <= 160)
        let narrow = JournalHistory.line(change, width: 80)
        // Ten columns a value: still the digits that changed, not the values' shared start.
        #expect(narrow.contains("3") && narrow.contains("4") && !narrow.contains("field0"), "\(narrow)")
        #expect(narrow.count <= 80)
    }

    /// Short values stay whole; a long value beside a short one is cut, never the short one.
    @Test func pairsKeepWhatFits() {
        let short = Wire.JournalValue(type: .boolean, value: .boolean(false))
        let long = Wire.JournalValue(type: .string, value: .string(String(repeating: "x", count: 300)))
        let (a, b) = HistoryText.pair(short, long, limit: 20)
        #expect(a == "false")
        #expect(b.count <= 20)
        let (c, d) = HistoryText.pair(nil, short, limit: 20)
        #expect(c == "(absent)" && d == "false")
    }

    /// A change of several keys (entries sharing a `group`) is one row, where its first entry
    /// stands, naming its keys within the width; a refused one says so.
    @Test func aGroupIsOneLineNamingItsKeys() throws {
        func member(_ id: Int64, _ key: String, action: String = "restore", group: Int64? = 10, extra: JSONObject = [:])
            throws -> Wire.JournalEntry
        {
            var object: JSONObject = [
                "id": .integer(id), "time": "2026-11-28T10:00:00Z", "action": .string(action), "scanner": "files",
                "container": "app.json", "key": .string(key), "undoable": true, "transport": "unix",
                "client": "jarvis-cli",
            ]
            if let group { object["group"] = .integer(group) }
            for (name, value) in extra { object[name] = value }
            return try Wire.JournalEntry(json: .object(object))
        }
        let long = String(repeating: "k", count: 120)
        let entries = [
            try member(9, "alone", action: "set", group: nil), try member(10, "theme"), try member(11, long),
            try member(12, "other", action: "set", group: nil), try member(13, "volume"),
        ]
        let rows = JournalHistory.rows(entries)
        #expect(rows.map { $0.map(\.id) } == [[9], [10, 11, 13], [12]])
        for width in [80, 120, 200] {
            let line = JournalHistory.line(group: rows[1], width: width)
            #expect(line.count <= width, "\(line.count): \(line)")
            #expect(line.contains("restore 3 keys: theme, kkk") && line.contains("can undo"), "\(line)")
        }
        #expect(JournalHistory.line(group: rows[1], width: 200).contains("volume"))
        let refused = [
            try member(20, "theme", group: 20, extra: ["undoable": false, "undoneBy": 21, "reason": "refused part way and put back by entry 21: it never took effect"]),
            try member(21, "theme", action: "rollback", group: 20, extra: ["undoable": false, "reverts": 20]),
        ]
        let line = JournalHistory.line(group: refused, width: 80)
        #expect(line.contains("restore 1 key: theme") && line.contains("refused"), "\(line)")
    }
}
