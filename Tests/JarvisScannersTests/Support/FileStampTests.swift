import Foundation
import JarvisSystem
import Testing

/// `FileStamp.ofEntry`: one `lstat` for a plain file, and what a link leads to for a link,
/// which the folder scanner uses both to validate its cache and to know whether a suite's
/// name is a link (only a link can lead outside its folder).
@Suite struct FileStampTests {
    let folder: TemporaryFolder

    init() throws {
        folder = try TemporaryFolder()
    }

    @Test func aPlainFileIsNoLinkAndHasItsOwnStamp() throws {
        let path = folder.url.appendingPathComponent("plain.plist").path
        try Data("a".utf8).write(to: URL(fileURLWithPath: path))
        let entry = try #require(FileStamp.ofEntry(path))
        #expect(!entry.isLink)
        #expect(entry.stamp == FileStamp.of(path))
    }

    @Test func aLinkReportsItselfAndTheStampOfItsTarget() throws {
        let target = folder.url.appendingPathComponent("target.plist").path
        let link = folder.url.appendingPathComponent("link.plist").path
        try Data("target".utf8).write(to: URL(fileURLWithPath: target))
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "target.plist")
        let entry = try #require(FileStamp.ofEntry(link))
        #expect(entry.isLink)
        #expect(entry.stamp == FileStamp.of(target))
    }

    @Test func nothingOrADanglingLinkHasNoStamp() throws {
        let dangling = folder.url.appendingPathComponent("dangling.plist").path
        try FileManager.default.createSymbolicLink(atPath: dangling, withDestinationPath: "gone.plist")
        #expect(FileStamp.ofEntry(dangling) == nil)
        #expect(FileStamp.ofEntry(folder.url.appendingPathComponent("missing.plist").path) == nil)
    }
}
