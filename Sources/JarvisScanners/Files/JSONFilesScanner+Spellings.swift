import Foundation
import JarvisCore

/// A folder holding one file name in two Unicode spellings (`señal.json` composed and
/// decomposed; Linux keeps both, as bytes differ): Jarvis compares names as one spelling (see
/// "One spelling of a name" in PROTOCOL.md), so such a name is ambiguous. It is listed once,
/// with this problem, and read and written under neither spelling, as a key held twice is.
extension JSONFilesScanner {
    /// The problem of a name its folder holds in more than one spelling; nil otherwise (and at
    /// once for an ASCII name, which has one spelling).
    func spellingProblem(_ name: String) -> JarvisError? {
        guard !name.utf8.allSatisfy({ $0 < 0x80 }) else { return nil }
        let last = (name as NSString).lastPathComponent
        for folder in served {
            let parent = (folder.path(of: name) as NSString).deletingLastPathComponent
            guard let entries = try? FileManager.default.contentsOfDirectory(atPath: parent) else { continue }
            // `==` compares canonically equivalent spellings as one.
            if entries.lazy.filter({ $0 == last }).count > 1 { return Self.twoSpellings(name) }
        }
        return nil
    }

    /// The names of `names` that appear more than once in other spellings.
    static func heldTwice(_ names: [String]) -> Set<String> {
        var counts: [String: Int] = [:]
        for name in names { counts[name, default: 0] += 1 }
        return Set(counts.filter { $0.value > 1 }.keys)
    }

    static func twoSpellings(_ name: String) -> JarvisError {
        JarvisError(
            .storage,
            "\(name): its folder holds this name twice, in two Unicode spellings (composed and decomposed, such as ñ and n + U+0303), which Jarvis reads as one name; rename one of the two files"
        )
    }
}
