import Foundation
import JarvisCore

/// What text an XML property list can hold.
///
/// XML 1.0 allows only tab, line feed, carriage return, U+0020–U+D7FF, U+E000–U+FFFD and
/// U+10000 and above. Foundation writes any other character into the file as it is, and the
/// result is a file that other parsers (and Foundation itself, later) refuse to read. So a
/// string headed for an XML suite is checked first and refused by name; a binary property
/// list holds every character and needs no check.
enum XMLPlistText {
    /// Checks every string and dictionary key in a property-list object.
    /// - Throws: ``JarvisError`` `.typeMismatch` naming the key, where inside the value, the
    ///   character and what to do instead.
    static func check(_ object: Any, key: String, file: String) throws(JarvisError) {
        if let scalar = firstIllegal(in: key) {
            throw refusal(scalar, key: key, place: "the key name", file: file)
        }
        if let (scalar, place) = firstIllegal(in: object, at: []) {
            throw refusal(scalar, key: key, place: place, file: file)
        }
        if let place = firstDateOutOfRange(in: object, at: []) {
            throw JarvisError(
                .typeMismatch,
                "'\(key.escapingControls)': \(place) is a date outside the years 1 to 9999, which '\(file)' (an XML property list, dates written as YYYY-MM-DDThh:mm:ssZ) cannot hold exactly; nothing was written"
            )
        }
    }

    /// The dates an XML property list writes exactly: four-digit years, 0001 to 9999.
    static let dateRange: ClosedRange<Double> = -63_113_904_000...252_423_993_599

    private static func firstDateOutOfRange(in object: Any, at path: [String]) -> String? {
        switch object {
        case let date as Date:
            guard !dateRange.contains(date.timeIntervalSinceReferenceDate) else { return nil }
            return path.isEmpty ? "the value" : "the value at \(JSONPointer(tokens: path))"
        case let array as [Any]:
            for (index, element) in array.enumerated() {
                if let found = firstDateOutOfRange(in: element, at: path + ["\(index)"]) { return found }
            }
        case let dictionary as [String: Any]:
            for name in dictionary.keys.sorted() {
                if let element = dictionary[name], let found = firstDateOutOfRange(in: element, at: path + [name]) {
                    return found
                }
            }
        default:
            break
        }
        return nil
    }

    /// Whether XML 1.0 can hold a character.
    static func isLegal(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x9, 0xA, 0xD, 0x20...0xD7FF, 0xE000...0xFFFD, 0x10000...0x10FFFF: true
        default: false
        }
    }

    private static func firstIllegal(in object: Any, at path: [String]) -> (Unicode.Scalar, String)? {
        switch object {
        case let text as String:
            let place = path.isEmpty ? "the value" : "the value at \(JSONPointer(tokens: path))"
            return firstIllegal(in: text).map { ($0, place) }
        case let array as [Any]:
            for (index, element) in array.enumerated() {
                if let found = firstIllegal(in: element, at: path + ["\(index)"]) { return found }
            }
        case let dictionary as [String: Any]:
            for name in dictionary.keys.sorted() {
                if let scalar = firstIllegal(in: name) {
                    return (scalar, "the member name at \(JSONPointer(tokens: path + [name]))")
                }
                if let element = dictionary[name], let found = firstIllegal(in: element, at: path + [name]) {
                    return found
                }
            }
        default:
            break
        }
        return nil
    }

    private static func firstIllegal(in text: String) -> Unicode.Scalar? {
        text.unicodeScalars.first(where: { !isLegal($0) })
    }

    private static func refusal(_ scalar: Unicode.Scalar, key: String, place what: String, file: String)
        -> JarvisError
    {
        let code = "U+" + String(scalar.value, radix: 16, uppercase: true).paddedLeft(to: 4)
        // U+FFFE, U+FFFF and lone surrogates are no control characters, yet XML cannot hold them.
        let kind = scalar.value < 0x20 ? "a control character" : "a character"
        return JarvisError(
            .typeMismatch,
            "'\(key.escapingControls)': \(what) contains \(code), \(kind) that XML 1.0 cannot hold, and '\(file)' is an XML property list; remove the character, or store the text as data (type data)"
        )
    }
}

extension String {
    fileprivate func paddedLeft(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }

    /// The key with its control characters spelt as `\u{…}`, so the message itself is safe.
    fileprivate var escapingControls: String {
        unicodeScalars.map {
            XMLPlistText.isLegal($0) && $0.value >= 0x20 ? String($0) : "\\u{\(String($0.value, radix: 16))}"
        }
        .joined()
    }
}
