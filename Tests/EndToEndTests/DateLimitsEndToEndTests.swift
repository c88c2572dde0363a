import Foundation
import JarvisCore
import Testing

/// Dates that cannot be stored exactly are refused with `typeMismatch`, never stored as
/// something else or dropped.
@Suite struct DateLimitsEndToEndTests {
    @Test func aReferenceBeyondWhatADateCanHoldIsRefused() throws {
        let sandbox = try Sandbox()
        let folder = sandbox.root.appendingPathComponent("prefs")
        try sandbox.writeSuite("com.example.xml", in: folder, ["seed": 1])
        try sandbox.startAgent(["--defaults-dir", folder.path])
        for reference in ["1e308", "-1e308", "\"NaN\"", "\"Infinity\""] {
            let value = #"{"$date":"2024-01-15T10:00:00Z","$reference":\#(reference)}"#
            let set = try sandbox.jarvis("set", "com.example.xml", "when", value, "--type", "json")
            #expect(set.status != 0, "\(reference) was accepted: \(set.stdout)")
            #expect(set.stderr.contains("$reference"), "\(set.stderr)")
        }
        #expect(try sandbox.readSuite("com.example.xml", in: folder)["when"] == nil)
        // An XML suite writes dates as four-digit years: a date outside them is refused by name.
        let far = try sandbox.jarvis(
            "set", "com.example.xml", "when", #"{"$date":"2024-01-15T10:00:00Z","$reference":-1e13}"#, "--type", "json")
        #expect(far.status != 0)
        #expect(far.stderr.contains("outside the years 1 to 9999"), "\(far.stderr)")
        #expect(try sandbox.readSuite("com.example.xml", in: folder)["when"] == nil)
        // An ordinary date still goes in.
        let fine = try sandbox.jarvis("set", "com.example.xml", "when", "2024-01-15T10:00:00Z", "--date")
        #expect(fine.status == 0, "\(fine.stderr)")
    }
}
