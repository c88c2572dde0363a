import Foundation
import JarvisCore
import JarvisSystem
import Testing

@testable import JarvisScanners

#if canImport(Glibc)
    import Glibc
#endif

/// The kernel's word that a folder is quiet (``FolderChanges``), which lets a `get` of an
/// unchanged suite skip its `lstat`: every kind of change another program can make moves the
/// generation, and the reads that trust it see every change made before they were asked.
@Suite struct FolderChangesTests {
    let folder: TemporaryFolder

    init() throws {
        folder = try TemporaryFolder()
    }

    #if os(Linux)
        /// The temporary folder is on a local file system here (the CI machine's too).
        private func changes() throws -> FolderChanges {
            let real = try #require(ServedFolder.realPath(folder.url.path))
            return try #require(FolderChanges.watching(real), "no inotify watch on \(real)")
        }

        @Test func aQuietFolderKeepsItsGenerationAndEveryChangeMovesIt() throws {
            try folder.writePlist("a.plist", ["k": 1])
            let other = try TemporaryFolder()
            try Data("x".utf8).write(to: other.file("moved.plist"))
            let changes = try changes()
            var last = try #require(changes.generation())
            #expect(changes.generation() == last)
            #expect(changes.generation() == last)
            let path = folder.file("a.plist").path
            let steps: [(String, () throws -> Void)] = [
                ("write in place", { try FileHandle(forWritingTo: self.folder.file("a.plist")).close() }),
                (
                    "append",
                    {
                        let handle = try FileHandle(forWritingTo: self.folder.file("a.plist"))
                        try handle.seekToEnd()
                        try handle.write(contentsOf: Data(" ".utf8))
                        try handle.close()
                    }
                ),
                ("create", { try Data("{}".utf8).write(to: self.folder.file("b.json")) }),
                ("rename over", { _ = rename(self.folder.file("b.json").path, path) }),
                ("move in", { _ = rename(other.file("moved.plist").path, self.folder.file("c.plist").path) }),
                ("chmod", { _ = chmod(path, 0o600) }),
                ("touch", { _ = utimes(path, nil) }),
                ("symlink", { _ = symlink(path, self.folder.file("d.plist").path) }),
                ("delete", { _ = unlink(self.folder.file("c.plist").path) }),
            ]
            for (name, change) in steps {
                try change()
                let now = try #require(changes.generation(), "\(name)")
                #expect(now > last, "\(name) did not move the generation")
                last = now
                #expect(changes.generation() == last, "\(name): quiet again")
            }
        }

        /// A file changed through a hard link in another folder is heard once the file itself
        /// is watched, as the reads watch every file they remember.
        @Test func aChangeThroughAHardLinkElsewhereIsHeardOnceTheFileIsWatched() throws {
            try folder.writePlist("a.plist", ["k": 1])
            let other = try TemporaryFolder()
            #expect(link(folder.file("a.plist").path, other.file("same.plist").path) == 0)
            let changes = try changes()
            var status = stat()
            #expect(lstat(folder.file("a.plist").path, &status) == 0)
            #expect(changes.watchFile(named: "a.plist", inode: UInt64(status.st_ino)))
            let before = try #require(changes.generation())
            let handle = try FileHandle(forWritingTo: other.file("same.plist"))
            try handle.write(contentsOf: Data("<".utf8))
            try handle.close()
            #expect(try #require(changes.generation()) > before)
            // A name that now leads to another file is not watched in its place.
            #expect(!changes.watchFile(named: "a.plist", inode: UInt64(status.st_ino) &+ 1))
        }

        @Test func aFolderRemovedOrReplacedIsNeverTrustedAgain() throws {
            let parent = try TemporaryFolder()
            let (served, removed) = try watchedFolder(in: parent)
            #expect(removed.generation() != nil)
            try FileManager.default.removeItem(at: served)
            #expect(removed.generation() == nil)

            // Replaced under the same path by renaming a parent folder: no event reaches the
            // watch, so the path's identity is checked (at most every 250 ms).
            let replaced = try watchedThenReplaced(in: parent)
            let start = ContinuousClock.now
            while replaced.generation() != nil, ContinuousClock.now - start < .seconds(30) {
                Thread.sleep(forTimeInterval: 0.01)
            }
            #expect(replaced.generation() == nil)
        }

        /// Past a checkpoint, a reading asks without a system call or a clock reading: the
        /// folder's identity is then checked when the checkpoint is passed, so a folder
        /// replaced under its path is still found out.
        @Test func aFolderReplacedIsFoundOutAtTheCheckpoints() throws {
            let parent = try TemporaryFolder()
            let replaced = try watchedThenReplaced(in: parent)
            let start = ContinuousClock.now
            var gone = false
            while !gone, ContinuousClock.now - start < .seconds(30) {
                gone = replaced.generation(ChangeCheckpoint.pass()) == nil
                if !gone { Thread.sleep(forTimeInterval: 0.01) }
            }
            #expect(gone)
        }

        /// What a reading decides follows the checkpoint it is given: the first reading past a
        /// checkpoint reads the pending changes, and the later ones past it are trusted (no
        /// system call, so a change made since is not seen yet); none reads the pending changes
        /// itself, and so does a later checkpoint. Each watch keeps its own reading, so the
        /// checkpoints other tests pass meanwhile (and their watches) change nothing here.
        @Test func theAnswerFollowsTheCheckpointPassedIn() throws {
            let parent = try TemporaryFolder()
            let (served, changes) = try watchedFolder(in: parent)
            for round in 0..<20 {
                let checkpoint = ChangeCheckpoint.pass()
                let quiet = try #require(changes.generation(checkpoint))
                try Data("\(round)".utf8).write(to: served.appendingPathComponent("new.plist"))
                // Not read yet: past the same checkpoint, its reading stands.
                #expect(changes.generation(checkpoint) == quiet, "round \(round)")
                // No checkpoint: the pending change is read now.
                let now = try #require(changes.generation(.none))
                #expect(now > quiet, "round \(round)")
                // A change read past a later checkpoint is seen by the readings past it.
                try Data("again".utf8).write(to: served.appendingPathComponent("new.plist"))
                let later = ChangeCheckpoint.pass()
                let seen = try #require(changes.generation(later))
                #expect(seen > now, "round \(round)")
                #expect(changes.generation(later) == seen)
            }
        }

        /// A watch whose last reference goes while a loop thread reads every watch's changes
        /// (so it may end inside that reading) ends cleanly: 1,000 watches made and dropped on
        /// one thread while another passes checkpoints without pause.
        @Test func watchesDroppedWhileALoopReadsThemEndCleanly() throws {
            let real = try #require(ServedFolder.realPath(folder.url.path))
            let stop = Locked(false)
            let loopDone = DispatchSemaphore(value: 0)
            Thread {
                while !stop.current { _ = ChangeCheckpoint.pass() }
                loopDone.signal()
            }.start()
            let makerDone = DispatchSemaphore(value: 0)
            Thread {
                for _ in 0..<1_000 {
                    let changes = FolderChanges.watching(real)
                    _ = changes?.generation()
                }
                makerDone.signal()
            }.start()
            #expect(makerDone.wait(timeout: .now() + 120) == .success, "making and dropping watches stalled")
            stop.withLock { $0 = true }
            #expect(loopDone.wait(timeout: .now() + 120) == .success, "the loop thread stalled")
        }

        /// A new folder `parent/served` and its changes, watched.
        private func watchedFolder(in parent: TemporaryFolder) throws -> (URL, FolderChanges) {
            let served = parent.file("served")
            try FileManager.default.createDirectory(at: served, withIntermediateDirectories: false)
            let real = try #require(ServedFolder.realPath(served.path))
            return (served, try #require(FolderChanges.watching(real)))
        }

        /// The changes of `parent/p/served`, watched, then replaced by another folder under
        /// the same path (its parent renamed away and made again).
        private func watchedThenReplaced(in parent: TemporaryFolder) throws -> FolderChanges {
            let inner = parent.file("p/served")
            try FileManager.default.createDirectory(at: inner, withIntermediateDirectories: true)
            let real = try #require(ServedFolder.realPath(inner.path))
            let changes = try #require(FolderChanges.watching(real))
            #expect(changes.generation() != nil)
            #expect(rename(parent.file("p").path, parent.file("q").path) == 0)
            try FileManager.default.createDirectory(at: inner, withIntermediateDirectories: true)
            return changes
        }

        /// No answer is older than a change made before it was asked: 300 changes of one
        /// suite by another writer, each read right after, through every way a suite is
        /// changed: replaced (a new file), rewritten in place at the same size, and written
        /// through a hard link in another folder.
        @Test func everyChangeMadeBeforeAGetIsInItsAnswer() throws {
            try folder.writePlist("app.plist", ["n": "v000"])
            let other = try TemporaryFolder()
            let hub = JarvisHub(configuration: .debug)
            hub.register(DefaultsScanner.defaults(folder: folder.url))
            let address = PreferenceAddress(scanner: "defaults", container: "app", key: "n")
            #expect(try hub.get(address).value == .string("v000"))
            for round in 1...300 {
                let value = String(format: "v%03d", round)
                let bytes = try PropertyListSerialization.data(fromPropertyList: ["n": value], format: .xml, options: 0)
                switch round % 3 {
                case 0:
                    try bytes.write(to: folder.file("app.plist"), options: .atomic)
                case 1:
                    let handle = try FileHandle(forWritingTo: folder.file("app.plist"))
                    try handle.truncate(atOffset: 0)
                    try handle.write(contentsOf: bytes)
                    try handle.close()
                default:
                    let elsewhere = other.file("app-\(round).plist")
                    try? FileManager.default.removeItem(at: elsewhere)
                    #expect(link(folder.file("app.plist").path, elsewhere.path) == 0)
                    let handle = try FileHandle(forWritingTo: elsewhere)
                    try handle.truncate(atOffset: 0)
                    try handle.write(contentsOf: bytes)
                    try handle.close()
                }
                #expect(try hub.get(address).value == .string(value), "round \(round)")
            }
        }
    #endif
}
