// jarvis-bench starts child processes: it exists on macOS and Linux only (see main.swift).
#if os(macOS) || os(Linux)
    import JarvisCore

    /// One measured figure: the median of several runs, with their min and max.
    struct Figure {
        var name: String
        var unit: String
        var median: Double
        var min: Double
        var max: Double
        var runs: Int

        /// Summarizes the runs; an empty list gives zeros (a benchmark that could not run says so elsewhere).
        init(_ name: String, unit: String, samples: [Double]) {
            self.name = name
            self.unit = unit
            runs = samples.count
            median = Stats.median(samples)
            min = samples.min() ?? 0
            max = samples.max() ?? 0
        }
    }

    /// A target checked against a measured ratio or value.
    struct Target {
        /// What is compared, in words (`hub.list / raw decode`).
        var name: String
        /// The measured value (a ratio, or milliseconds, …).
        var measured: Double
        var unit: String
        /// The limit, in words (`≤ 1.5×`).
        var limit: String
        var met: Bool
    }

    /// Order statistics over samples.
    enum Stats {
        static func median(_ samples: [Double]) -> Double {
            percentile(samples, 0.5)
        }

        /// The nearest-rank percentile (`fraction` in 0...1) of unsorted samples; 0 when empty.
        static func percentile(_ samples: [Double], _ fraction: Double) -> Double {
            guard !samples.isEmpty else { return 0 }
            let sorted = samples.sorted()
            if fraction == 0.5, sorted.count % 2 == 0 {
                return (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
            }
            let rank = Int((fraction * Double(sorted.count)).rounded(.up)) - 1
            return sorted[Swift.min(Swift.max(rank, 0), sorted.count - 1)]
        }
    }

    /// Times a block with the monotonic clock; returns its result and the seconds it took.
    func timed<T>(_ body: () throws -> T) rethrows -> (T, Double) {
        let start = ContinuousClock.now
        let result = try body()
        return (result, (ContinuousClock.now - start).inSeconds)
    }
#endif
