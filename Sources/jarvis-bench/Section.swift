// jarvis-bench starts child processes: it exists on macOS and Linux only (see main.swift).
#if os(macOS) || os(Linux)
    /// What one benchmark reports: its figures, the targets checked against them, and notes.
    struct Section {
        /// The name used by `--only` (`scan`).
        var name: String
        /// A line saying what was measured (`defaults suite of 10,000 keys, 1.0 MB`).
        var title: String
        var figures: [Figure] = []
        var targets: [Target] = []
        var notes: [String] = []
        /// Why the benchmark did not run, when it did not.
        var skipped: String?

        init(name: String, title: String) {
            self.name = name
            self.title = title
        }

        /// A section that could not run, with what to do about it.
        static func skipped(_ name: String, _ reason: String) -> Section {
            var section = Section(name: name, title: name)
            section.skipped = reason
            return section
        }

        mutating func add(_ name: String, unit: String, samples: [Double]) {
            figures.append(Figure(name, unit: unit, samples: samples))
        }

        /// Adds a target that holds when `measured <= limit`.
        mutating func atMost(_ name: String, _ measured: Double, _ limit: Double, unit: String = "×") {
            targets.append(
                Target(
                    name: name, measured: measured, unit: unit, limit: "≤ \(Report.number(limit))\(unit)",
                    met: measured <= limit))
        }

        /// Adds a target that holds when `measured >= limit`.
        mutating func atLeast(_ name: String, _ measured: Double, _ limit: Double, unit: String = "×") {
            targets.append(
                Target(
                    name: name, measured: measured, unit: unit, limit: "≥ \(Report.number(limit))\(unit)",
                    met: measured >= limit))
        }

        /// Adds a target that holds when `measured < limit`.
        mutating func below(_ name: String, _ measured: Double, _ limit: Double, unit: String) {
            targets.append(
                Target(
                    name: name, measured: measured, unit: unit, limit: "< \(Report.number(limit)) \(unit)",
                    met: measured < limit))
        }
    }

    /// A failure that ends one benchmark but not the run: its section says why.
    struct BenchFailure: Error, CustomStringConvertible {
        var description: String
        init(_ description: String) { self.description = description }
    }
#endif
