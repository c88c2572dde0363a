import Foundation
import Testing

@testable import JarvisCore

@Suite struct JSONPointerTests {
    let created = Date(timeIntervalSince1970: 1_700_000_000)
    var root: PreferenceValue {
        [
            "profile": [
                "tags": ["swift", "math"],
                "created": .date(created),
                "avatar": .data(Data([1, 2, 3])),
                "limits": ["daily": 3, "ratio": 1.5],
            ],
            "a/b": "slash",
            "m~n": "tilde",
        ]
    }

    @Test func parsesEscapesAndPrintsThemBack() throws {
        let pointer = try JSONPointer(parsing: "/a~1b/m~0n/~01")
        #expect(pointer.tokens == ["a/b", "m~n", "~1"])
        #expect(pointer.description == "/a~1b/m~0n/~01")
        #expect(try JSONPointer(parsing: "").isWhole)
        #expect(try JSONPointer(parsing: "/").tokens == [""])
        #expect(try JSONPointer(parsing: "/a~1b").value(in: root) == "slash")
        #expect(try JSONPointer(parsing: "/m~0n").value(in: root) == "tilde")
    }

    @Test func refusesMalformedPointers() {
        for text in ["profile", "/a~2", "/a~"] {
            let error = #expect(throws: JarvisError.self) { try JSONPointer(parsing: text) }
            #expect(error?.code == .invalidParams, "\(text)")
        }
    }

    @Test func getsNestedValues() throws {
        #expect(try JSONPointer(parsing: "/profile/tags/1").value(in: root) == "math")
        #expect(try JSONPointer(parsing: "/profile/created").value(in: root) == .date(created))
        #expect(try JSONPointer(parsing: "").value(in: root) == root)
    }

    @Test func setsThreeLevelsDeepKeepingEverySibling() throws {
        let edited = try JSONPointer(parsing: "/profile/limits/daily").setting(7, in: root)
        guard case .dictionary(let top) = edited, case .dictionary(let profile)? = top["profile"] else {
            Issue.record("shape changed: \(edited)")
            return
        }
        #expect(profile["created"] == .date(created))
        #expect(profile["avatar"] == .data(Data([1, 2, 3])))
        #expect(profile["tags"] == ["swift", "math"])
        #expect(profile["limits"] == ["daily": 7, "ratio": 1.5])
        #expect(top["a/b"] == "slash")
    }

    @Test func arraysReplaceAppendAndShift() throws {
        let replaced = try JSONPointer(parsing: "/profile/tags/0").setting("rust", in: root)
        #expect(try JSONPointer(parsing: "/profile/tags").value(in: replaced) == ["rust", "math"])
        let appended = try JSONPointer(parsing: "/profile/tags/-").setting("art", in: root)
        #expect(try JSONPointer(parsing: "/profile/tags").value(in: appended) == ["swift", "math", "art"])
        let atEnd = try JSONPointer(parsing: "/profile/tags/2").setting("art", in: root)
        #expect(atEnd == appended)
        let removed = try JSONPointer(parsing: "/profile/tags/0").removing(in: root)
        #expect(try JSONPointer(parsing: "/profile/tags").value(in: removed) == ["math"])
        let newKey = try JSONPointer(parsing: "/profile/limits/weekly").setting(10, in: root)
        #expect(try JSONPointer(parsing: "/profile/limits/weekly").value(in: newKey) == 10)
    }

    @Test func clearErrorsForMissingPathsAndWrongContainers() throws {
        let missing = #expect(throws: JarvisError.self) {
            try JSONPointer(parsing: "/profile/nope/x").setting(1, in: root)
        }
        #expect(missing?.code == .notFound)
        #expect(missing?.message.contains("no key 'nope' at /profile") == true)
        let past = #expect(throws: JarvisError.self) { try JSONPointer(parsing: "/profile/tags/5").value(in: root) }
        #expect(past?.code == .notFound)
        #expect(past?.message.contains("2 elements") == true)
        let scalar = #expect(throws: JarvisError.self) { try JSONPointer(parsing: "/a~1b/x").value(in: root) }
        #expect(scalar?.code == .typeMismatch)
        #expect(scalar?.message.contains("/a~1b is a string") == true)
        let notIndex = #expect(throws: JarvisError.self) {
            try JSONPointer(parsing: "/profile/tags/01").value(in: root)
        }
        #expect(notIndex?.code == .typeMismatch)
        let dash = #expect(throws: JarvisError.self) { try JSONPointer(parsing: "/profile/tags/-").removing(in: root) }
        #expect(dash?.code == .notFound)
        let gone = #expect(throws: JarvisError.self) { try JSONPointer(parsing: "/profile/zzz").removing(in: root) }
        #expect(gone?.code == .notFound)
    }
}
