// jarvis-bench starts child processes: it exists on macOS and Linux only (see main.swift).
#if os(macOS) || os(Linux)
    import Foundation
    import JarvisCore

    /// Prints the sections as a table, or as one JSON document.
    enum Report {
        static func table(_ sections: [Section], machine: Machine, command: String) -> String {
            var lines = ["jarvis-bench on \(machine.summary)", "command: \(command)", ""]
            for section in sections {
                lines.append("== \(section.name): \(section.title)")
                if let skipped = section.skipped {
                    lines.append("   skipped: \(skipped)")
                    lines.append("")
                    continue
                }
                if !section.figures.isEmpty {
                    let width = max(36, section.figures.map(\.name.count).max() ?? 0)
                    lines.append(
                        "   " + pad("figure", width) + padLeft("median", 12) + padLeft("min", 12) + padLeft("max", 12)
                            + "  unit")
                    for figure in section.figures {
                        lines.append(
                            "   " + pad(figure.name, width) + padLeft(number(figure.median), 12)
                                + padLeft(number(figure.min), 12)
                                + padLeft(number(figure.max), 12) + "  " + figure.unit)
                    }
                }
                for target in section.targets {
                    let mark = target.met ? "MET   " : "MISSED"
                    lines.append(
                        "   [\(mark)] \(target.name): \(number(target.measured))\(unitText(target.unit))  (target \(target.limit))"
                    )
                }
                for note in section.notes {
                    lines.append("   note: \(note)")
                }
                lines.append("")
            }
            let targets = sections.flatMap(\.targets)
            lines.append("targets met: \(targets.filter(\.met).count) of \(targets.count)")
            return lines.joined(separator: "\n")
        }

        static func json(_ sections: [Section], machine: Machine, command: String) -> String {
            var benchmarks: [JSONValue] = []
            for section in sections {
                var object: JSONObject = ["name": .string(section.name), "title": .string(section.title)]
                if let skipped = section.skipped { object["skipped"] = .string(skipped) }
                object["figures"] = .array(
                    section.figures.map { figure in
                        .object([
                            "name": .string(figure.name), "unit": .string(figure.unit), "median": real(figure.median),
                            "min": real(figure.min), "max": real(figure.max), "runs": .number(JSONNumber(figure.runs)),
                        ])
                    })
                object["targets"] = .array(
                    section.targets.map { target in
                        .object([
                            "name": .string(target.name), "measured": real(target.measured),
                            "unit": .string(target.unit),
                            "limit": .string(target.limit), "met": .bool(target.met),
                        ])
                    })
                object["notes"] = .array(section.notes.map { .string($0) })
                benchmarks.append(.object(object))
            }
            let document: JSONValue = .object([
                "machine": machine.json, "command": .string(command), "benchmarks": .array(benchmarks),
            ])
            return JSONWriter.string(document, pretty: true)
        }

        /// A number with about four significant digits, without a trailing `.0`.
        static func number(_ value: Double) -> String {
            guard value.isFinite else { return "n/a" }
            let magnitude = abs(value)
            let digits = magnitude >= 1000 ? 0 : magnitude >= 100 ? 1 : magnitude >= 10 ? 2 : magnitude >= 1 ? 3 : 4
            var text = String(format: "%.\(digits)f", value)
            if text.contains(".") {
                while text.hasSuffix("0") { text.removeLast() }
                if text.hasSuffix(".") { text.removeLast() }
            }
            return text
        }

        private static func real(_ value: Double) -> JSONValue {
            JSONNumber(value.isFinite ? value : 0).map { .number($0) } ?? .null
        }

        private static func unitText(_ unit: String) -> String {
            unit == "×" ? unit : " " + unit
        }

        private static func pad(_ text: String, _ width: Int) -> String {
            text.count >= width ? text + " " : text + String(repeating: " ", count: width - text.count)
        }

        private static func padLeft(_ text: String, _ width: Int) -> String {
            text.count >= width ? " " + text : String(repeating: " ", count: width - text.count) + text
        }
    }
#endif
