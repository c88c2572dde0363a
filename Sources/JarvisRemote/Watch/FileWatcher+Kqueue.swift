#if canImport(Darwin)
    import Darwin
    import Dispatch
    import Foundation
    import JarvisCore

    /// The Apple side of ``FileWatcher``: kqueue vnode sources through Dispatch.
    ///
    /// A folder's source fires when entries are added, removed or renamed (atomic saves); it
    /// reports a nil name and the watcher re-opens its per-file sources. Each regular file in the
    /// folder has its own source for writes in place, which reports the file's name.
    final class FileWatcherBackend {
        private let queue: DispatchQueue
        private let handler: FileWatcher.Handler
        private var folders: [String: FolderSources] = [:]
        private var cancelled = false

        /// The most files watched in one folder, to stay far below the descriptor limit.
        private static let maxFilesPerFolder = 256

        private struct FolderSources {
            var folder: any DispatchSourceFileSystemObject
            var files: [String: any DispatchSourceFileSystemObject] = [:]
        }

        init(queue: DispatchQueue, handler: @escaping FileWatcher.Handler) throws(JarvisError) {
            self.queue = queue
            self.handler = handler
        }

        func watch(folder: String) throws(JarvisError) {
            guard !cancelled, folders[folder] == nil else { return }
            let descriptor = open(folder, O_EVTONLY)
            guard descriptor >= 0 else {
                throw JarvisError(.storage, "cannot watch \(folder): \(String(cString: strerror(errno)))")
            }
            let source = DispatchSource.makeFileSystemObjectSource(
                fileDescriptor: descriptor, eventMask: [.write, .delete, .rename, .link, .attrib], queue: queue)
            source.setEventHandler { [weak self] in
                guard let self else { return }
                self.refreshFiles(in: folder)
                self.handler(folder, nil)
            }
            source.setCancelHandler { close(descriptor) }
            folders[folder] = FolderSources(folder: source)
            source.resume()
            refreshFiles(in: folder)
        }

        func unwatch(folder: String) {
            guard let sources = folders.removeValue(forKey: folder) else { return }
            sources.folder.cancel()
            for file in sources.files.values { file.cancel() }
        }

        func cancel() {
            guard !cancelled else { return }
            for folder in Array(folders.keys) { unwatch(folder: folder) }
            cancelled = true
        }

        /// Opens a source for every regular file now in the folder and drops those of files gone
        /// or replaced (a replaced file has a new inode, so its old source would stay silent).
        private func refreshFiles(in folder: String) {
            guard var sources = folders[folder] else { return }
            for (_, source) in sources.files { source.cancel() }
            sources.files = [:]
            let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
            for name in names.sorted().prefix(Self.maxFilesPerFolder) {
                let path = folder + "/" + name
                var isDirectory: ObjCBool = false
                guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue
                else {
                    continue
                }
                let descriptor = open(path, O_EVTONLY)
                guard descriptor >= 0 else { continue }
                let source = DispatchSource.makeFileSystemObjectSource(
                    fileDescriptor: descriptor, eventMask: [.write, .extend, .delete, .rename, .attrib], queue: queue)
                source.setEventHandler { [weak self] in self?.handler(folder, name) }
                source.setCancelHandler { close(descriptor) }
                source.resume()
                sources.files[name] = source
            }
            folders[folder] = sources
        }
    }
#endif
