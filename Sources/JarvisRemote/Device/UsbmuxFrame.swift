import JarvisCore

/// The usbmuxd wire format, pure: a 16-byte little-endian header (whole length including the
/// header, protocol version 1, message type 8 for a property list, a tag the answer echoes)
/// before an XML property list. No sockets here; ``UsbmuxConnection`` moves the bytes.
package enum UsbmuxFrame {
    /// The header's size in bytes.
    package static let headerSize = 16
    /// The protocol version of property-list messages.
    package static let plistVersion: UInt32 = 1
    /// The message type of a property-list message.
    package static let plistMessage: UInt32 = 8
    /// The longest message accepted, header included: a device list of dozens of devices takes
    /// a few KiB, so anything near this is a broken or hostile daemon, refused before a byte of
    /// it is read.
    package static let maxLength = 1 << 20
    /// What a decoded answer may take in memory (its nesting bounded as every property list's).
    static let limits = PropertyListLimits(maxBytes: 8 << 20)

    /// One decoded header.
    package struct Header: Sendable, Hashable {
        /// The whole message's length, header included.
        package var length: UInt32
        /// The protocol version (1 for property lists).
        package var version: UInt32
        /// The message type (8 for a property list).
        package var message: UInt32
        /// The request's tag, echoed by its answer.
        package var tag: UInt32

        /// A header with every field given.
        package init(length: UInt32, version: UInt32, message: UInt32, tag: UInt32) {
            self.length = length
            self.version = version
            self.message = message
            self.tag = tag
        }
    }

    /// The bytes of one request: `fields` as an XML dictionary behind its header.
    package static func encode(_ fields: [PropertyList.Member], tag: UInt32) -> [UInt8] {
        // Request fields are names and numbers the client chose, which XML always holds.
        let payload = (try? PropertyListCodec.write(.dictionary(fields), as: .xml)) ?? []
        let header = Header(
            length: UInt32(headerSize + payload.count), version: plistVersion, message: plistMessage, tag: tag)
        return bytes(of: header) + payload
    }

    /// The 16 bytes of `header`, little-endian.
    package static func bytes(of header: Header) -> [UInt8] {
        [header.length, header.version, header.message, header.tag].flatMap { word in
            (0..<4).map { UInt8(truncatingIfNeeded: word >> (8 * $0)) }
        }
    }

    /// Reads a header and checks it: a plist message whose length fits ``maxLength``.
    ///
    /// - Returns: the header; its payload is `length - 16` bytes.
    /// - Throws: ``UsbmuxError`` `.tooLarge` or `.damaged`.
    package static func header(_ bytes: [UInt8]) throws(UsbmuxError) -> Header {
        guard bytes.count == headerSize else {
            throw UsbmuxError(.damaged, "usbmuxd sent a header of \(bytes.count) bytes, not \(headerSize)")
        }
        func word(_ index: Int) -> UInt32 {
            (0..<4).reduce(UInt32(0)) { $0 | UInt32(bytes[index * 4 + $1]) << (8 * $1) }
        }
        let header = Header(length: word(0), version: word(1), message: word(2), tag: word(3))
        guard header.length >= headerSize else {
            throw UsbmuxError(
                .damaged,
                "usbmuxd sent a message of length \(header.length), shorter than its own \(headerSize)-byte header")
        }
        guard header.length <= maxLength else {
            throw UsbmuxError(
                .tooLarge,
                "usbmuxd announced a message of \(header.length) bytes, over the \(maxLength >> 20) MiB this client reads; none of it was read (is something other than usbmuxd listening there?)"
            )
        }
        guard header.message == plistMessage else {
            throw UsbmuxError(
                .damaged,
                "usbmuxd answered with message type \(header.message), not a property list (8): it speaks another version of the protocol"
            )
        }
        return header
    }

    /// Decodes a payload into the dictionary every usbmuxd message is.
    ///
    /// - Throws: ``UsbmuxError`` `.damaged`, saying what was wrong with the property list.
    package static func message(_ payload: [UInt8]) throws(UsbmuxError) -> [PropertyList.Member] {
        let value: PropertyList
        do {
            value = try PropertyListCodec.read(payload, limits: limits).value
        } catch {
            throw UsbmuxError(.damaged, "usbmuxd sent a damaged property list: \(error)")
        }
        guard case .dictionary(let members) = value else {
            throw UsbmuxError(.damaged, "usbmuxd sent \(value.kindDescription) where a message is a dictionary")
        }
        return members
    }
}

extension [PropertyList.Member] {
    /// The value of `key`, or nil.
    package subscript(usbmux key: String) -> PropertyList? {
        first { $0.key == key }?.value
    }

    /// The text of `key` when it is a string.
    package func usbmuxString(_ key: String) -> String? {
        if case .string(let text)? = self[usbmux: key] { return text }
        return nil
    }

    /// The number of `key` when it is a non-negative integer.
    package func usbmuxNumber(_ key: String) -> UInt64? {
        switch self[usbmux: key] {
        case .integer(let value)? where value >= 0: UInt64(value)
        case .unsigned(let value)?: value
        default: nil
        }
    }
}
