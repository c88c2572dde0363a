import Foundation
import JarvisCore

/// Writes a ``PreferenceValue`` as compact JSON with sorted keys.
///
/// Written by hand rather than with `JSONSerialization` because that writes the real `1.0`
/// as `1`, which would read back as an integer; here every real keeps a fraction or an
/// exponent (`1.0`, `1e-07`), so a value round-trips with its type.
enum JSONText {
    /// The JSON bytes of a value.
    /// - Throws: ``JarvisError`` `.typeMismatch` for dates, data and non-finite reals, which
    ///   JSON cannot hold.
    static func data(_ value: PreferenceValue, key: String) throws(JarvisError) -> Data {
        var text = ""
        try write(value, into: &text, path: key)
        return Data(text.utf8)
    }

    private static func write(_ value: PreferenceValue, into text: inout String, path: String) throws(JarvisError) {
        switch value {
        case .string(let string):
            writeString(string, into: &text)
        case .integer(let integer):
            text += String(integer)
        case .real(let real):
            guard real.isFinite else {
                throw JarvisError(.typeMismatch, "'\(path)' is \(real), which JSON cannot hold; send a finite number")
            }
            text += String(real)
        case .boolean(let boolean):
            text += boolean ? "true" : "false"
        case .date:
            throw JarvisError(
                .typeMismatch,
                "'\(path)' is a date, which JSON cannot hold; send the number or string the app's JSONEncoder wrote")
        case .data:
            throw JarvisError(
                .typeMismatch,
                "'\(path)' is data, which JSON cannot hold; send the base64 string the app's JSONEncoder wrote")
        case .array(let values):
            text += "["
            for (index, element) in values.enumerated() {
                if index > 0 { text += "," }
                try write(element, into: &text, path: "\(path)[\(index)]")
            }
            text += "]"
        case .dictionary(let values):
            text += "{"
            for (index, (key, element)) in values.sorted(by: { $0.key < $1.key }).enumerated() {
                if index > 0 { text += "," }
                writeString(key, into: &text)
                text += ":"
                try write(element, into: &text, path: "\(path).\(key)")
            }
            text += "}"
        }
    }

    private static func writeString(_ string: String, into text: inout String) {
        text += "\""
        for scalar in string.unicodeScalars {
            switch scalar {
            case "\"": text += "\\\""
            case "\\": text += "\\\\"
            case "\n": text += "\\n"
            case "\r": text += "\\r"
            case "\t": text += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                text += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: text.unicodeScalars.append(scalar)
            }
        }
        text += "\""
    }
}
