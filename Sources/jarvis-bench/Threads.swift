// jarvis-bench starts child processes: it exists on macOS and Linux only (see main.swift).
#if os(macOS) || os(Linux)
    import Foundation
    import JarvisCore

    /// Runs a body on `count` threads of their own, released together, and collects the results.
    ///
    /// Plain threads rather than tasks: each client blocks in a socket call, as a real client would.
    enum Threads {
        static func run<T: Sendable>(_ count: Int, _ body: @escaping @Sendable (Int) -> T) -> [T] {
            let results = Locked<[Int: T]>([:])
            let ready = DispatchSemaphore(value: 0)
            let go = DispatchSemaphore(value: 0)
            let done = DispatchGroup()
            for index in 0..<count {
                done.enter()
                let thread = Thread {
                    ready.signal()
                    go.wait()
                    let result = body(index)
                    results.withLock { $0[index] = result }
                    done.leave()
                }
                thread.stackSize = 1 << 20
                thread.start()
            }
            for _ in 0..<count { ready.wait() }
            for _ in 0..<count { go.signal() }
            done.wait()
            let collected = results.current
            return (0..<count).compactMap { collected[$0] }
        }
    }
#endif
