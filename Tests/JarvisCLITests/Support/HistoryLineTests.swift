import Foundation
import Testing

@testable import jarvis

/// `jarvis history` in a narrow terminal keeps the time, the action, the place and who; the
/// revisions and the connection's detail give way first.
@Suite struct HistoryLineTests {
    private let when = Date(timeIntervalSince1970: 1_763_719_320.125)  // 2025-11-21T10:02:00.125Z

    private func line(container: String = "defaults:com.example.demo.prefs", key: String = "launch_count", width: Int?)
        -> HistoryLine
    {
        HistoryLine.fitted(
            time: when, action: "set", place: container, key: key, client: "jarvis-cli",
            connection: "unix pid 4711 uid 1000", revisions: "21fdd471c0a3b2e1 -> afe8d7da90b1c2d3", width: width)
    }

    @Test func pipedOutputIsWhole() {
        #expect(
            line(width: nil).text
                == "2025-11-21T10:02:00.125Z  set    defaults:com.example.demo.prefs launch_count  by jarvis-cli (unix pid 4711 uid 1000)  21fdd471c0a3b2e1 -> afe8d7da90b1c2d3"
        )
    }

    @Test func eightyColumnsKeepTimeActionPlaceAndWho() {
        let fitted = line(width: 80)
        #expect(fitted.text.count <= 80, "\(fitted.text)")
        #expect(fitted.text.contains("by jarvis-cli"))
        #expect(fitted.text.contains("set "))
        #expect(fitted.text.contains("defaults:com.example.demo.prefs launch_count"), "\(fitted.text)")
        #expect(fitted.revisions.isEmpty)
        #expect(fitted.time == "11-21 10:02:00", "the date stays, the year and milliseconds go")
    }

    @Test func roomyTerminalsKeepMore() {
        let wide = line(width: 120)
        #expect(wide.text.count <= 120)
        #expect(wide.text.contains("by jarvis-cli (unix pid 4711 uid 1000)"), "\(wide.text)")
        #expect(wide.time == "2025-11-21T10:02:00.125Z")
        #expect(line(width: 200).text == line(width: nil).text)
    }

    @Test func aLongContainerIsShortenedInTheMiddleAndTheKeyStaysWhole() {
        let fitted = line(container: "defaults:com.example.a-very-long-suite-name-for-this-test.preferences", width: 80)
        #expect(fitted.text.count <= 80, "\(fitted.text)")
        #expect(fitted.place.hasPrefix("defaults:com") && fitted.place.hasSuffix("preferences") && fitted.place.contains("…"))
        #expect(fitted.key == "launch_count" && fitted.text.contains("by jarvis-cli"))
    }
}
