// jarvis-bench starts child processes: it exists on macOS and Linux only (see main.swift).
#if os(macOS) || os(Linux)
    import Foundation

    /// What the Jarvis libraries add to a host's binary: the loadable bytes (code, constants,
    /// data — the ELF sections a program maps) of their object files in the build folder beside
    /// this benchmark. An upper bound for the same architecture: a linker that strips dead code
    /// drops what a host never calls.
    enum BinarySize {
        /// Loadable bytes of each library's object files; nil where the build folder has no
        /// ELF objects (macOS builds Mach-O, measured with `size -m` instead).
        static func libraries(_ names: [String]) -> [(name: String, bytes: Int)]? {
            let build = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
            var sizes: [(String, Int)] = []
            for name in names {
                let folder = build.appendingPathComponent("\(name).build")
                guard let files = try? FileManager.default.contentsOfDirectory(atPath: folder.path) else { return nil }
                var total = 0
                for file in files where file.hasSuffix(".o") {
                    guard let bytes = loadableBytes(folder.appendingPathComponent(file)) else { return nil }
                    total += bytes
                }
                sizes.append((name, total))
            }
            return sizes
        }

        /// The sum of the sizes of an ELF64 little-endian file's SHF_ALLOC sections.
        static func loadableBytes(_ file: URL) -> Int? {
            guard let data = try? Data(contentsOf: file), data.count > 64,
                data.prefix(4) == Data([0x7F, 0x45, 0x4C, 0x46]), data[4] == 2, data[5] == 1
            else { return nil }
            func integer(_ offset: Int, _ size: Int) -> Int {
                guard offset >= 0, offset + size <= data.count else { return 0 }
                var value = 0
                for index in (0..<size).reversed() { value = value << 8 | Int(data[data.startIndex + offset + index]) }
                return value
            }
            let table = integer(0x28, 8)
            let entrySize = integer(0x3A, 2)
            let count = integer(0x3C, 2)
            guard entrySize >= 64 else { return nil }
            var total = 0
            for index in 0..<count {
                let entry = table + index * entrySize
                let flags = integer(entry + 8, 8)
                let type = integer(entry + 4, 4)
                // SHF_ALLOC, and not SHT_NOBITS (.bss takes no room in the file).
                if flags & 0x2 != 0, type != 8 { total += integer(entry + 32, 8) }
            }
            return total
        }
    }
#endif
