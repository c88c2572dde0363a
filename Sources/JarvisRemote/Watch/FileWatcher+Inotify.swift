#if canImport(Glibc)
    import Dispatch
    import Glibc
    import JarvisCore

    /// The Linux side of ``FileWatcher``: one inotify descriptor read by a dispatch source, so
    /// the kernel wakes the process only when a watched folder changes.
    final class FileWatcherBackend {
        private let queue: DispatchQueue
        private let handler: FileWatcher.Handler
        private let descriptor: Int32
        private let source: any DispatchSourceRead
        private var folders: [Int32: String] = [:]
        private var descriptors: [String: Int32] = [:]
        private var cancelled = false

        private static let mask =
            UInt32(IN_CLOSE_WRITE | IN_MOVED_TO | IN_MOVED_FROM | IN_CREATE | IN_DELETE | IN_MODIFY)
            | UInt32(IN_ATTRIB | IN_DELETE_SELF | IN_MOVE_SELF)

        init(queue: DispatchQueue, handler: @escaping FileWatcher.Handler) throws(JarvisError) {
            let descriptor = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
            guard descriptor >= 0 else {
                throw JarvisError(
                    .unavailable, "cannot watch files: inotify_init1 failed: \(String(cString: strerror(errno)))")
            }
            self.queue = queue
            self.handler = handler
            self.descriptor = descriptor
            source = DispatchSource.makeReadSource(fileDescriptor: descriptor, queue: queue)
            source.setEventHandler { [weak self] in self?.readEvents() }
            source.setCancelHandler { close(descriptor) }
            source.resume()
        }

        func watch(folder: String) throws(JarvisError) {
            guard !cancelled, descriptors[folder] == nil else { return }
            let watch = inotify_add_watch(descriptor, folder, Self.mask)
            guard watch >= 0 else {
                throw JarvisError(.storage, "cannot watch \(folder): \(String(cString: strerror(errno)))")
            }
            folders[watch] = folder
            descriptors[folder] = watch
        }

        func unwatch(folder: String) {
            guard let watch = descriptors.removeValue(forKey: folder) else { return }
            folders[watch] = nil
            if !cancelled { inotify_rm_watch(descriptor, watch) }
        }

        func cancel() {
            guard !cancelled else { return }
            cancelled = true
            folders = [:]
            descriptors = [:]
            source.cancel()
        }

        /// Reads every queued event; each is a fixed header then a NUL-padded name.
        private func readEvents() {
            let headerSize = MemoryLayout<inotify_event>.size
            var buffer = [UInt8](repeating: 0, count: 64 * 1024)
            while !cancelled {
                let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
                guard count > 0 else { return }
                // A write makes several events for one file (create, modify, close): each file
                // is reported once per batch read.
                var changed: [(folder: String, name: String?)] = []
                var seen: Set<String> = []
                defer { for (folder, name) in changed { handler(folder, name) } }
                var offset = 0
                while offset + headerSize <= count {
                    let (watch, mask, length) = buffer.withUnsafeBytes { raw in
                        let event = raw.loadUnaligned(fromByteOffset: offset, as: inotify_event.self)
                        return (event.wd, event.mask, Int(event.len))
                    }
                    let nameStart = offset + headerSize
                    offset = nameStart + length
                    guard offset <= count, let folder = folders[watch] else { continue }
                    if mask & UInt32(IN_IGNORED) != 0 {
                        folders[watch] = nil
                        descriptors[folder] = nil
                    }
                    var name: String?
                    if length > 0 {
                        let bytes = buffer[nameStart..<nameStart + length].prefix { $0 != 0 }
                        name = String(decoding: bytes, as: UTF8.self)
                    }
                    if seen.insert(folder + "/" + (name ?? "")).inserted { changed.append((folder, name)) }
                }
            }
        }
    }
#endif
