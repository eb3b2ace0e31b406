/// A malformed cursor text (see ``Cursor/init(text:)``).
public struct CursorTextError: Error, CustomStringConvertible, Sendable, Equatable {
    public var text: String
    public var reason: String
    public var description: String { "malformed cursor '\(text)': \(reason)" }
}

extension Cursor {
    /// The cursor's opaque, URL-safe text form: `v1.` followed by the base64url (no padding) of
    /// 16 bytes, `publishedAt` then `id`, each a big-endian two's-complement 64-bit integer.
    ///
    /// Opaque on purpose: callers pass it back as is (like a Relay or Stripe cursor) and never
    /// build one by hand; the version prefix lets the format change later.
    public var text: String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(16)
        for value in [UInt64(bitPattern: publishedAt), UInt64(bitPattern: id)] {
            for shift in stride(from: 56, through: 0, by: -8) { bytes.append(UInt8(truncatingIfNeeded: value >> shift)) }
        }
        return "v1." + Self.base64URL(bytes)
    }

    /// Parses the text form written by ``text``.
    /// - Throws: ``CursorTextError`` saying what is wrong (prefix, alphabet, length).
    public init(text: String) throws {
        guard text.hasPrefix("v1.") else {
            throw CursorTextError(text: text, reason: "expected a cursor printed by feedsim (starting 'v1.')")
        }
        guard let bytes = Self.decodeBase64URL(text.dropFirst(3)) else {
            throw CursorTextError(text: text, reason: "not base64url text")
        }
        guard bytes.count == 16 else {
            throw CursorTextError(text: text, reason: "expected 16 bytes, found \(bytes.count)")
        }
        func int64(_ start: Int) -> Int64 {
            Int64(bitPattern: bytes[start..<start + 8].reduce(0) { $0 << 8 | UInt64($1) })
        }
        self.init(publishedAt: int64(0), id: int64(8))
    }

    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

    private static func base64URL(_ bytes: [UInt8]) -> String {
        var out: [UInt8] = []
        var index = 0
        while index < bytes.count {
            let chunk = bytes[index..<min(index + 3, bytes.count)]
            var word: UInt32 = 0
            for (offset, byte) in chunk.enumerated() { word |= UInt32(byte) << (16 - 8 * offset) }
            for position in 0...chunk.count { out.append(alphabet[Int(word >> (18 - 6 * position)) & 63]) }
            index += 3
        }
        return String(decoding: out, as: UTF8.self)
    }

    private static func decodeBase64URL(_ text: Substring) -> [UInt8]? {
        var values: [UInt8] = []
        for byte in text.utf8 {
            guard let value = alphabet.firstIndex(of: byte) else { return nil }
            values.append(UInt8(value))
        }
        if values.count % 4 == 1 { return nil }  // no whole byte fits in 6 bits
        var out: [UInt8] = []
        var index = 0
        while index < values.count {
            let group = values[index..<min(index + 4, values.count)]
            var word: UInt32 = 0
            for (offset, value) in group.enumerated() { word |= UInt32(value) << (18 - 6 * offset) }
            for position in 0..<(group.count - 1) { out.append(UInt8(truncatingIfNeeded: word >> (16 - 8 * position))) }
            index += 4
        }
        // Canonical form only: re-encoding must give the same text (no stray low bits).
        return base64URL(out) == String(text) ? out : nil
    }
}
