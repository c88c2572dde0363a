// jarvis-bench runs on macOS and Linux only (see main.swift).
#if os(macOS) || os(Linux)
    import Foundation
    import JarvisCore
    import JarvisInspector
    import JarvisRemote

    /// Benchmark: the in-app panel's model at 100,000 keys, measured as the CPU time of the
    /// calling thread: a keystroke in the search field (``PanelSearch``, narrowed keystroke
    /// by keystroke off the main thread, against a full search of every row), a keystroke in the add sheet's name field
    /// (what its `body` reads: one look-up in the ``PanelDigest``, against the three walks of
    /// every key it made before), the digest made once per change (off the main thread), and
    /// the detail of a 10 MB value with its capped preview.
    enum PanelBench {
        static func run(_ options: BenchOptions) throws -> Section {
            let keys = options.size(100_000, quick: 20_000)
            var section = Section(
                name: "panel",
                title: "the in-app panel's model with \(Report.number(Double(keys))) keys: CPU per keystroke, per change, per 10 MB detail"
            )
            let state = makeState(keys: keys)
            let typed = ["k", "ke", "key", "key-", "key-4", "key-42", "key-421", "key-42*"]
            var search: [Double] = []
            var fullSearch: [Double] = []
            var searchBuild: [Double] = []
            var addNow: [Double] = []
            var addBefore: [Double] = []
            var digestCost: [Double] = []
            var detailCost: [Double] = []
            let big = PreferenceAddress(scanner: "files", container: "c0", key: "big")
            for _ in 0..<options.runCount {
                var perKey: [Double] = []
                var perKeyFull: [Double] = []
                var panelSearch: PanelSearch?
                searchBuild.append(cpu { panelSearch = PanelSearch(state, scanner: nil) })
                guard var panelSearch else { break }
                for query in typed {
                    perKey.append(cpu { _ = panelSearch.sections(InspectorFilter(query)).count })
                    perKeyFull.append(cpu { _ = state.sections(scanner: nil, filter: InspectorFilter(query)).count })
                }
                search.append(Stats.median(perKey))
                fullSearch.append(Stats.median(perKeyFull))
                var digest = PanelDigest.empty
                digestCost.append(cpu { digest = PanelDigest(state) })
                addNow.append(
                    cpu {
                        let choices = digest.addChoices(scanner: nil)
                        _ = choices.first { $0.id == "files\u{0}c1" }
                    })
                addBefore.append(cpu { for _ in 0..<3 { _ = state.addChoices(scanner: nil).count } })
                detailCost.append(cpu { _ = state.detail(big, limit: PanelDigest.previewLimit)?.valueText?.count })
            }
            section.below("search keystroke (PanelSearch, off the main thread)", Stats.median(search), 16, unit: "ms CPU")
            section.add("search keystroke before (every row built and tested)", unit: "ms CPU", samples: fullSearch)
            section.add("search built per change and segment (off the main thread)", unit: "ms CPU", samples: searchBuild)
            section.below("add-field keystroke (main thread, digest look-up)", Stats.median(addNow), 16, unit: "ms CPU")
            section.add("add-field keystroke before (3 walks of every key)", unit: "ms CPU", samples: addBefore)
            section.add("digest per change (off the main thread)", unit: "ms CPU", samples: digestCost)
            section.below("detail of a 10 MB value, capped preview", Stats.median(detailCost), 16, unit: "ms CPU")
            section.notes.append(
                "CPU time of the measuring thread (CLOCK_THREAD_CPUTIME_ID); a search keystroke is the median over typing \(typed.joined(separator: ", ")); keys spread over two scanners and six containers"
            )
            return section
        }

        /// `keys` integer keys over two scanners of three containers each, and one 10 MB string.
        private static func makeState(keys: Int) -> InspectorState {
            var state = InspectorState(
                hello: Wire.HelloResult(
                    agent: "bench", pid: 1, platform: "Linux",
                    capabilities: Wire.Capabilities(
                        editing: true, reveal: false, production: false, maxLineLength: 1 << 20, tcp: false,
                        auth: .none),
                    scanners: ["defaults", "files"]))
            let scanners = ["defaults", "files"]
            let containers = scanners.flatMap { scanner in
                (0..<3).map { Wire.Container(scanner: scanner, name: "c\($0)", writable: true) }
            }
            var items = (0..<keys).map { index in
                PreferenceItem(
                    address: PreferenceAddress(scanner: scanners[index % 2], container: "c\(index % 3)", key: "key-\(index)"),
                    type: .integer, value: .integer(Int64(index)), revision: Revision("r"))
            }
            items.append(
                PreferenceItem(
                    address: PreferenceAddress(scanner: "files", container: "c0", key: "big"), type: .string,
                    value: .string(String(repeating: "x", count: 10_000_000)), revision: Revision("r")))
            state.replace(
                scanners: scanners.map { Wire.Scanner(id: $0, name: $0, secret: false, writable: true, available: true) },
                containers: containers, items: items)
            return state
        }

        /// Milliseconds of this thread's CPU that `body` takes.
        private static func cpu(_ body: () -> Void) -> Double {
            func now() -> Double {
                var spec = timespec()
                clock_gettime(CLOCK_THREAD_CPUTIME_ID, &spec)
                return Double(spec.tv_sec) * 1000 + Double(spec.tv_nsec) / 1_000_000
            }
            let start = now()
            body()
            return now() - start
        }
    }
#endif
