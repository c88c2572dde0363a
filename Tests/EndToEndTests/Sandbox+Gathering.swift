import Foundation
import JarvisCore

extension Sandbox {
    /// Starts `jarvis` with `arguments` in the background (`jarvis watch`), everything it prints
    /// gathered as it comes by a thread that reads until the pipe closes; the caller ends it.
    func startJarvisGathering(_ arguments: [String]) throws -> (process: Process, seen: Locked<String>) {
        let (process, output) = try startJarvis(arguments)
        let seen = Locked("")
        let reader = Thread {
            while true {
                let data = output.fileHandleForReading.availableData
                if data.isEmpty { return }
                seen.withLock { $0 += String(decoding: data, as: UTF8.self) }
            }
        }
        reader.start()
        return (process, seen)
    }
}
