import Foundation
import JarvisCore
import JarvisWeb

/// `jarvis web`: the browser inspector, served on the loopback address.
enum WebCommand: Command {
    static let name = "web"
    static let summary = "browse and edit an agent's preferences in your web browser, live"
    static let usage = """
        jarvis web [--agent NAME|PID|PATH] [--port N] [--no-open]

          Serves the inspector on http://127.0.0.1 (this machine only) and opens it in
          your browser: the running agents, their scanners and containers, a filterable
          key table, each value as a tree and as JSON, editing with the editor that fits
          its type, and live updates. The printed address carries a one-time secret; the
          browser trades it for a cookie scoped to the page's random path, so nobody
          else (another user of this machine, another web site, another local server)
          can use the page. The browser is handed a private file that leads to the
          address, never the address itself (command lines are visible to every user).
          Nothing is loaded from the network. Ctrl-C stops it.

          The sidebar lists this computer's agents, Simulator apps by device, and an
          agent named with --agent tcp://HOST:PORT (a phone, a tunnel), whose token
          (--token-file FILE) stays in this process and goes only to that agent.

          --port N    listen on port N (default: any free port)
          --no-open   print the address without opening a browser
        """

    static func run(_ arguments: inout Arguments, context: Context) throws {
        let port = try arguments.option("--port", expecting: "a port number from 0 to 65535") { UInt16($0) }
        let noOpen = arguments.flag("--no-open")
        try arguments.finish(maxPositionals: 0, command: name)
        // SIGINT and SIGTERM are taken by this thread with `sigwait`, never by their default
        // action: a parent may have started this process with both blocked (a child inherits
        // the mask: a test runner's worker thread, a service manager), and then Ctrl-C or a
        // `kill` would not stop it at all. Blocked before the server's threads exist, so every
        // one of them inherits the mask and none takes the signal instead.
        var stopSignals = sigset_t()
        sigemptyset(&stopSignals)
        sigaddset(&stopSignals, SIGINT)
        sigaddset(&stopSignals, SIGTERM)
        pthread_sigmask(SIG_BLOCK, &stopSignals, nil)
        let server = try WebServer(port: port ?? 0, agent: context.agentSelector, token: context.token)
        let address = server.address
        Terminal.out("Jarvis web inspector: \(address)")
        Terminal.out(Terminal.dim("Open that address in your browser (it works once); Ctrl-C stops the server."))
        if !noOpen {
            // The browser gets a private file that leads to the address, never the address:
            // a command line is readable by every user of the machine.
            do {
                openBrowser(try server.writeLaunchFile())
            } catch {
                Terminal.err("note: \(error.message); open the address yourself")
            }
        }
        // The server serves on its own loop from the moment it was made; this thread only
        // waits for the signal that stops it.
        var received: Int32 = 0
        sigwait(&stopSignals, &received)
        server.stop()
        exit(0)
    }

    /// Opens `address` (the private launch file's) in the default browser where a desktop
    /// exists; silent where none does.
    private static func openBrowser(_ address: String) {
        #if os(macOS) || os(Linux)
            let environment = ProcessInfo.processInfo.environment
            #if os(macOS)
                let opener = "/usr/bin/open"
            #else
                guard environment["DISPLAY"] != nil || environment["WAYLAND_DISPLAY"] != nil else { return }
                let folders = (environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin").split(separator: ":")
                guard let opener = folders.map({ "\($0)/xdg-open" }).first(where: { FileManager.default.isExecutableFile(atPath: $0) })
                else { return }
            #endif
            let process = Process()
            process.executableURL = URL(fileURLWithPath: opener)
            process.arguments = [address]
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try? process.run()
        #endif
    }
}
