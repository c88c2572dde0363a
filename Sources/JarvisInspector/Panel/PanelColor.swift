import Foundation

/// Colours the panel draws with fixed values, and the WCAG 2 contrast ratio that checks them.
///
/// Text smaller than 18 pt needs a ratio of at least 4.5:1 against its background (WCAG 2.1,
/// success criterion 1.4.3). The READ-ONLY banner's footnote text is small, so its colours
/// are chosen here and a test holds them to that.
public struct PanelColor: Sendable, Hashable {
    /// sRGB components, 0 to 1.
    public var red, green, blue: Double

    /// A colour from sRGB components, 0 to 1.
    public init(red: Double, green: Double, blue: Double) {
        self.red = red
        self.green = green
        self.blue = blue
    }

    /// A colour from 8-bit sRGB components.
    public init(red255: Int, green255: Int, blue255: Int) {
        self.init(red: Double(red255) / 255, green: Double(green255) / 255, blue: Double(blue255) / 255)
    }

    /// The READ-ONLY banner's text: white.
    public static let readOnlyText = PanelColor(red: 1, green: 1, blue: 1)
    /// The READ-ONLY banner's background: a dark orange (#A34700), 5.6:1 against white. The
    /// system orange (#FF9500) is about 2.2:1.
    public static let readOnlyBackground = PanelColor(red255: 0xA3, green255: 0x47, blue255: 0x00)

    /// Relative luminance (WCAG 2.1): each component linearised, then weighted.
    public var luminance: Double {
        func linear(_ c: Double) -> Double {
            c <= 0.04045 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4)
        }
        return 0.2126 * linear(red) + 0.7152 * linear(green) + 0.0722 * linear(blue)
    }

    /// The contrast ratio of two colours, 1 to 21: (lighter + 0.05) / (darker + 0.05).
    public func contrast(with other: PanelColor) -> Double {
        let (a, b) = (luminance, other.luminance)
        return (max(a, b) + 0.05) / (min(a, b) + 0.05)
    }
}
