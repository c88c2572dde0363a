// jarvis-bench starts child processes: it exists on macOS and Linux only (see main.swift).
#if os(macOS) || os(Linux)
    import Foundation
    import JarvisCore

    /// Benchmark: what a page of `list` costs by where it starts. A listing in pages of 500
    /// over a 100,000-key suite, through a real agent: a page near the end must cost about what
    /// the first one does (it once re-walked every item before its cursor, 200 walks in all).
    enum PagingBench {
        static func run(_ options: BenchOptions) throws -> Section {
            let keys = options.size(100_000, quick: 10_000)
            let pageSize = 500
            let folder = try Fixture.temporaryFolder("paging")
            defer { try? FileManager.default.removeItem(at: folder) }
            let data = try Fixture.plist(count: keys)
            try Fixture.write(data, into: folder)
            let agent = try AgentChild(serving: folder)
            defer { agent.stop() }
            let client = try agent.connect()
            defer { client.close() }

            // Walk the whole listing once, keeping every page's cursor and its time.
            var cursors: [String?] = [nil]
            var whole: [Double] = []
            var cursor: String?
            repeat {
                var params: JSONObject = ["limit": .integer(pageSize)]
                if let cursor { params["cursor"] = .string(cursor) }
                let (page, seconds) = try timed { try client.call("list", params) }
                whole.append(seconds * 1000)
                cursor = page["nextCursor"]?.stringValue
                if let cursor { cursors.append(cursor) }
            } while cursor != nil
            guard cursors.count >= 4 else { throw BenchFailure("the listing had only \(cursors.count) pages") }

            func page(at cursor: String?) throws -> Double {
                var params: JSONObject = ["limit": .integer(pageSize)]
                if let cursor { params["cursor"] = .string(cursor) }
                return try timed { try client.call("list", params) }.1 * 1000
            }
            var first: [Double] = []
            var middle: [Double] = []
            var last: [Double] = []
            for _ in 0..<options.runCount {
                first.append(try page(at: nil))
                middle.append(try page(at: cursors[cursors.count / 2]))
                last.append(try page(at: cursors[cursors.count - 2]))
            }
            var section = Section(
                name: "paging",
                title: "list in pages of \(pageSize) over \(keys) keys (\(cursors.count) pages), through the agent")
            section.add("first page", unit: "ms", samples: first)
            section.add("middle page", unit: "ms", samples: middle)
            section.add("second-to-last page", unit: "ms", samples: last)
            section.add("whole listing in pages, once", unit: "ms", samples: [whole.reduce(0, +)])
            section.atMost("second-to-last page / first page", Stats.median(last) / Stats.median(first), 2)
            section.notes.append(
                "before paging started at its cursor, a page cost a walk of every item before it: the last page of 100,000 keys about 200 first pages"
            )
            return section
        }
    }
#endif
