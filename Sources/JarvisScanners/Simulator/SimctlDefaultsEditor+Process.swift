import Foundation
import JarvisCore

extension SimctlDefaultsEditor {
    #if os(macOS) || os(Linux)
        /// Runs `executable` and waits for it (at most `timeout`); its standard error becomes the
        /// message when it fails.
        /// - Throws: ``JarvisError`` `.storage` when it cannot start, times out or exits non-zero.
        static func run(_ executable: URL, arguments: [String], timeout: Duration) throws(JarvisError) {
            let process = Process()
            process.executableURL = executable
            process.arguments = arguments
            let errors = Pipe()
            process.standardError = errors
            process.standardOutput = FileHandle.nullDevice
            let finished = DispatchSemaphore(value: 0)
            process.terminationHandler = { _ in finished.signal() }
            do {
                try process.run()
            } catch {
                throw JarvisError(.storage, "cannot run \(executable.path): \(error.localizedDescription)")
            }
            // Read standard error while the tool runs, so a chatty tool never blocks on a full pipe.
            let output = Locked(Data())
            let drained = DispatchSemaphore(value: 0)
            let reader = errors.fileHandleForReading
            DispatchQueue.global().async {
                let data = reader.readDataToEndOfFile()
                output.withLock { $0 = data }
                drained.signal()
            }
            let seconds = timeout.inSeconds
            if finished.wait(timeout: .now() + seconds) == .timedOut {
                process.terminate()
                throw JarvisError(
                    .storage,
                    "`\(executable.lastPathComponent) \(arguments.prefix(5).joined(separator: " "))` did not finish in \(seconds) s; is the device still booted?"
                )
            }
            _ = drained.wait(timeout: .now() + 5)
            let message = String(decoding: output.current, as: UTF8.self)
                .trimmingCharacters(in: .whitespacesAndNewlines)
            guard process.terminationStatus == 0 else {
                throw JarvisError(
                    .storage,
                    "the device's `defaults` tool failed (exit \(process.terminationStatus))"
                        + (message.isEmpty ? "" : ": \(message)")
                        + "; check the device is still booted (`xcrun simctl list`)")
            }
        }
    #else
        /// Processes cannot be started on this platform (iOS, tvOS, watchOS, visionOS).
        static func run(_ executable: URL, arguments: [String], timeout: Duration) throws(JarvisError) {
            throw JarvisError(.unavailable, "\(executable.lastPathComponent) cannot be run on this platform")
        }
    #endif
}
