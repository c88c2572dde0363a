import Foundation

#if os(macOS) || os(Linux)
    import JarvisCore

    // Writing to a child that went away must give an error, not kill the benchmark.
    signal(SIGPIPE, SIG_IGN)

    func fail(_ message: String, status: Int32 = 1) -> Never {
        FileHandle.standardError.write(Data("jarvis-bench: \(message)\n".utf8))
        exit(status)
    }

    let options = BenchOptions.parse(Array(CommandLine.arguments.dropFirst()))
    if let runtime = options.hostProbe { exit(HostProbe.serve(runtime: runtime)) }
    if let runtime = options.defaultsHost { exit(DefaultsHost.serve(runtime: runtime)) }

    let benchmarks: [String: (BenchOptions) throws -> Section] = [
        "scan": ScanBench.run, "roundtrip": RoundTripBench.run, "list": ListBench.run, "paging": PagingBench.run,
        "watch": WatchBench.run, "host": HostCostBench.run, "load": LoadBench.run,
        "watchscope": WatchScopeBench.run, "web": WebBench.run, "stuck": StuckBench.run,
        "inspect": InspectBench.run, "plist": PlistBench.run, "panel": PanelBench.run,
    ]
    var sections: [Section] = []
    for name in options.selected {
        guard let run = benchmarks[name] else { continue }
        FileHandle.standardError.write(Data("jarvis-bench: running \(name)…\n".utf8))
        do {
            sections.append(try run(options))
        } catch {
            sections.append(.skipped(name, "failed: \(error)"))
        }
    }
    let command = (["swift run -c release jarvis-bench"] + CommandLine.arguments.dropFirst()).joined(separator: " ")
    let machine = Machine.current()
    print(
        options.json
            ? Report.json(sections, machine: machine, command: command)
            : Report.table(sections, machine: machine, command: command))
#else
    // iOS, tvOS, watchOS and visionOS allow no child processes, which every benchmark starts.
    FileHandle.standardError.write(
        Data("jarvis-bench runs the real jarvis and jarvis-agent as child processes; run it on macOS or Linux\n".utf8))
    exit(69)
#endif
