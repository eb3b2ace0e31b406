import Foundation

/// A strict RFC 8259 reader over UTF-8 bytes that builds no tree: it reads the scalars a caller
/// asks for (strings, numbers, booleans) and checks and skips the rest. What ``ServePageBody``
/// reads serve's pages with, since Foundation's `JSONDecoder` was about 60 % of a load worker's
/// CPU per page (`perf` under `feedsim bench http`, 2026-12-01).
///
/// It accepts only what RFC 8259 allows: whitespace is space, tab, CR and LF; numbers
/// `-?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?`; strings of valid UTF-8 without raw control
/// characters, with the escapes `\" \\ \/ \b \f \n \r \t \uXXXX` (a UTF-16 surrogate pair for a
/// scalar beyond the BMP; a lone surrogate is an error); nesting at most ``maximumDepth`` deep.
/// Anything else throws ``JSONScanError`` with the byte offset. `JSONReaderTests` checks it
/// against `JSONSerialization` as the oracle on random documents.
struct JSONByteReader {
    let bytes: UnsafeBufferPointer<UInt8>
    /// Offset of the next byte to read.
    fileprivate(set) var index = 0
    /// The bytes of the last escaped string read, kept for the next (one buffer per reader).
    private var unescaped: [UInt8] = []
    /// Arrays and objects nested deeper than this are an error (no recursion without end).
    static let maximumDepth = 512

    init(_ bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    func error(_ reason: String) -> JSONScanError { JSONScanError(offset: index, reason: reason) }

    mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0A, 0x0D: index += 1
            default: return
            }
        }
    }

    /// The next byte after whitespace, not consumed; `nil` at the end.
    mutating func peek() -> UInt8? {
        skipWhitespace()
        return index < bytes.count ? bytes[index] : nil
    }

    /// Consumes `byte` after whitespace. - Throws: ``JSONScanError`` when another byte is there.
    mutating func expect(_ byte: UInt8) throws {
        guard peek() == byte else { throw error("expected '\(Character(Unicode.Scalar(byte)))'") }
        index += 1
    }

    /// After a member or element: `true` when `,` follows (another comes), `false` at `close`.
    mutating func next(close: UInt8) throws -> Bool {
        switch peek() {
        case UInt8(ascii: ","): index += 1; return true
        case close: index += 1; return false
        default: throw error("expected ',' or '\(Character(Unicode.Scalar(close)))'")
        }
    }

    /// Checks that only whitespace is left.
    mutating func end() throws {
        guard peek() == nil else { throw error("text after the document") }
    }

    // MARK: - Literals

    /// `true` or `false`. - Throws: ``JSONScanError`` for any other value.
    mutating func readBool() throws -> Bool {
        if literal("true") { return true }
        if literal("false") { return false }
        throw error("expected a boolean")
    }

    /// Consumes `null` when it is next.
    mutating func readNull() -> Bool { literal("null") }

    private mutating func literal(_ word: StaticString) -> Bool {
        skipWhitespace()
        let count = word.utf8CodeUnitCount
        guard bytes.count - index >= count else { return false }
        let matches = word.withUTF8Buffer { word in (0..<count).allSatisfy { bytes[index + $0] == word[$0] } }
        if matches { index += count }
        return matches
    }

    // MARK: - Numbers

    /// A JSON number as the nearest Double (as `strtod` rounds it; exact for integers up to 2^53).
    /// - Throws: ``JSONScanError`` when the text is not a number or it is beyond Double's range.
    mutating func readNumber() throws -> Double {
        skipWhitespace()
        let start = index
        // A positive integer of at most 15 digits (serve's ids, times and sizes): its value in the
        // same pass as its digits; anything else is read again below.
        if let base = bytes.baseAddress, index < bytes.count, base[index] >= UInt8(ascii: "1"), base[index] <= UInt8(ascii: "9") {
            var value: Int64 = 0
            var offset = index
            while offset < bytes.count, offset - index < 16, isDigit(base[offset]) {
                value = value &* 10 &+ Int64(base[offset] &- UInt8(ascii: "0"))
                offset += 1
            }
            let ends = offset == bytes.count || !(isDigit(base[offset]) || base[offset] == UInt8(ascii: ".")
                || base[offset] == UInt8(ascii: "e") || base[offset] == UInt8(ascii: "E"))
            if ends, offset - index <= 15 {
                index = offset
                return Double(value)
            }
        }
        var integer = true
        if index < bytes.count, bytes[index] == UInt8(ascii: "-") { index += 1 }
        guard index < bytes.count, isDigit(bytes[index]) else { throw error("expected a number") }
        if bytes[index] == UInt8(ascii: "0") {
            index += 1
        } else {
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            integer = false
            index += 1
            guard index < bytes.count, isDigit(bytes[index]) else { throw error("expected a digit after '.'") }
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            integer = false
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
            guard index < bytes.count, isDigit(bytes[index]) else { throw error("expected a digit in the exponent") }
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        }
        let negative = bytes[start] == UInt8(ascii: "-")
        let digitsStart = negative ? start + 1 : start
        if integer, index - digitsStart <= 15 {
            // Exact in a Double: no rounding to decide.
            var value: Int64 = 0
            for offset in digitsStart..<index { value = value * 10 + Int64(bytes[offset] - UInt8(ascii: "0")) }
            return negative ? -Double(value) : Double(value)
        }
        guard let value = Double(String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)),
            value.isFinite
        else {
            throw JSONScanError(offset: start, reason: "the number is beyond a Double's range")
        }
        return value
    }

    private func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

    // MARK: - Strings

    /// A JSON string, unescaped. - Throws: ``JSONScanError`` for a malformed string.
    mutating func readString() throws -> String {
        let (start, end, form) = try scanString()
        let raw = UnsafeBufferPointer(rebasing: bytes[start..<end])
        switch form {
        case .ascii: return String(decoding: raw, as: UTF8.self)  // ASCII is valid UTF-8
        case .plain:
            guard let text = String(validating: raw, as: UTF8.self) else {
                throw JSONScanError(offset: start, reason: "the string is not valid UTF-8")
            }
            return text
        case .escapedASCII: return try unescapeASCII(start, end)
        case .escaped: break
        }
        unescaped.removeAll(keepingCapacity: true)
        var offset = start
        while offset < end {
            guard bytes[offset] == UInt8(ascii: "\\") else {
                // The run up to the next escape, at once.
                var runEnd = offset + 1
                while runEnd < end, bytes[runEnd] != UInt8(ascii: "\\") { runEnd += 1 }
                unescaped.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[offset..<runEnd]))
                offset = runEnd
                continue
            }
            let code = bytes[offset + 1]  // scanString checked every escape
            offset += 2
            switch code {
            case UInt8(ascii: "b"): unescaped.append(0x08)
            case UInt8(ascii: "f"): unescaped.append(0x0C)
            case UInt8(ascii: "n"): unescaped.append(0x0A)
            case UInt8(ascii: "r"): unescaped.append(0x0D)
            case UInt8(ascii: "t"): unescaped.append(0x09)
            case UInt8(ascii: "u"):
                let (scalar, next) = try unicodeEscape(at: offset, end: end)
                offset = next
                unescaped.append(contentsOf: UTF8.encode(scalar)!)
            default: unescaped.append(code)  // `"`, `\`, `/`
            }
        }
        guard let text = String(validating: unescaped, as: UTF8.self) else {
            throw JSONScanError(offset: start, reason: "the string is not valid UTF-8")
        }
        return text
    }

    /// The scalar of the `\u` escape whose four hex digits start at `offset` (a UTF-16 surrogate
    /// pair takes the next `\uXXXX` too), and the offset after it.
    /// - Throws: ``JSONScanError`` for a lone surrogate.
    private func unicodeEscape(at start: Int, end: Int) throws -> (Unicode.Scalar, Int) {
        var offset = start
        var scalar = UInt32(hex4(at: offset))
        offset += 4
        if (0xD800...0xDBFF).contains(scalar) {
            guard offset + 6 <= end, bytes[offset] == UInt8(ascii: "\\"), bytes[offset + 1] == UInt8(ascii: "u") else {
                throw JSONScanError(offset: offset, reason: "a lone UTF-16 surrogate")
            }
            let low = UInt32(hex4(at: offset + 2))
            guard (0xDC00...0xDFFF).contains(low) else { throw JSONScanError(offset: offset, reason: "a lone UTF-16 surrogate") }
            offset += 6
            scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
        } else if (0xDC00...0xDFFF).contains(scalar) {
            throw JSONScanError(offset: offset, reason: "a lone UTF-16 surrogate")
        }
        guard let unicode = Unicode.Scalar(scalar) else { throw JSONScanError(offset: offset, reason: "not a scalar") }
        return (unicode, offset)
    }

    /// An escaped string whose raw bytes are all ASCII, unescaped straight into the new String's
    /// storage: what it holds is ASCII and whole scalars UTF-8 encodes, valid by construction (an
    /// escape never takes more bytes than it stands for: `\uXXXX` is 6 bytes for at most 3, a
    /// surrogate pair 12 for 4). Serve's payloads are JSON text in a string, an escape every few
    /// bytes: appending run by run to an array and validating it again was about 5,000
    /// instructions per payload (callgrind under `feedsim load --source`, 2026-12-01).
    private func unescapeASCII(_ start: Int, _ end: Int) throws -> String {
        guard let base = bytes.baseAddress else { return "" }
        return try String(unsafeUninitializedCapacity: end - start) { out in
            guard let target = out.baseAddress else { return 0 }
            var written = 0
            var offset = start
            let ones: UInt64 = 0x0101_0101_0101_0101
            while offset < end {
                // Eight bytes at once, up to the next backslash (the test of scanString, and its
                // lowest flag); `written` is never past `offset - start`, so a store of 8 stays in
                // the capacity even when fewer of its bytes count.
                while end - offset >= 8 {
                    let raw = UnsafeRawPointer(base + offset).loadUnaligned(as: UInt64.self)
                    UnsafeMutableRawPointer(target + written).storeBytes(of: raw, as: UInt64.self)
                    let word = UInt64(littleEndian: raw)
                    let backslashes = word ^ (ones &* 0x5C)
                    let flags = (backslashes &- ones) & ~backslashes & (ones &* 0x80)
                    if flags != 0 {
                        let before = flags.trailingZeroBitCount >> 3
                        written += before
                        offset += before
                        break
                    }
                    written += 8
                    offset += 8
                }
                guard offset < end else { break }
                let byte = base[offset]
                guard byte == UInt8(ascii: "\\") else {
                    out[written] = byte
                    written += 1
                    offset += 1
                    continue
                }
                let code = base[offset + 1]  // scanString checked every escape
                offset += 2
                switch code {
                case UInt8(ascii: "b"): out[written] = 0x08
                case UInt8(ascii: "f"): out[written] = 0x0C
                case UInt8(ascii: "n"): out[written] = 0x0A
                case UInt8(ascii: "r"): out[written] = 0x0D
                case UInt8(ascii: "t"): out[written] = 0x09
                case UInt8(ascii: "u"):
                    let (scalar, next) = try unicodeEscape(at: offset, end: end)
                    offset = next
                    for unit in UTF8.encode(scalar)! {
                        out[written] = unit
                        written += 1
                    }
                    continue
                default: out[written] = code  // `"`, `\`, `/`
                }
                written += 1
            }
            return written
        }
    }

    /// What a string's raw bytes hold.
    enum StringForm {
        /// ASCII without escapes: the bytes are the text.
        case ascii
        /// No escapes, but bytes past ASCII (to check as UTF-8).
        case plain
        /// Escapes, and every raw byte ASCII.
        case escapedASCII
        /// Escapes, and bytes past ASCII.
        case escaped
    }

    /// Checks a string's escapes and consumes it. - Returns: the offsets of its contents (without
    /// the quotes) and what they hold.
    fileprivate mutating func scanString() throws -> (Int, Int, StringForm) {
        try expect(UInt8(ascii: "\""))
        let start = index
        // On a local offset and the raw base pointer (the bounds are the loop's own), eight bytes
        // at a time while none of them is a quote, a backslash or a control character (the
        // SWAR tests of Hacker's Delight §6-1, "find the first 0-byte", and Anderson's bit hacks'
        // "determine if a word has a byte less than n"); a word that has one goes byte by byte
        // up to it. A load worker's instructions per page request went from 785k to 712k with the
        // local offset, and from about 500k to 430k with the words, the unescaping straight into
        // the String and serve's keys compared as bytes (callgrind under `feedsim load --source`,
        // 2026-12-01).
        guard let base = bytes.baseAddress else { throw JSONScanError(offset: start - 1, reason: "the string is not closed") }
        let count = bytes.count
        var offset = start
        var escaped = false
        var high: UInt64 = 0  // every byte ORed: a byte ≥ 0x80 when one is past ASCII
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highBits: UInt64 = 0x8080_8080_8080_8080
        scan: while true {
            while count - offset >= 8 {
                let word = UInt64(littleEndian: UnsafeRawPointer(base + offset).loadUnaligned(as: UInt64.self))
                let quotes = word ^ (ones &* 0x22)
                let backslashes = word ^ (ones &* 0x5C)
                // A byte of `x` is zero ⇔ that byte of `(x - ones) & ~x` has its high bit (for
                // the whole word: any zero byte sets one); a byte < 0x20 likewise with 0x20s.
                let special = (((quotes &- ones) & ~quotes) | ((backslashes &- ones) & ~backslashes)
                    | ((word &- ones &* 0x20) & ~word)) & highBits
                if special != 0 {
                    // A borrow can flag a byte above a special one, never below it: the lowest
                    // flag is the first special byte. Straight to it (serve's payloads, JSON
                    // text in a string, have an escape every few bytes): with the same jump in
                    // unescapeASCII, 412.0k → 393.3k instructions per page request (2026-12-02).
                    let before = special.trailingZeroBitCount >> 3
                    if before > 0 { high |= word & (UInt64.max >> UInt64(64 - (before << 3))) }
                    offset += before
                    break
                }
                high |= word
                offset += 8
            }
            // The special byte (or, fewer than 8 bytes from the end, byte by byte up to it).
            while offset < count {
                let byte = base[offset]
                if byte == UInt8(ascii: "\"") {
                    index = offset + 1
                    let form: StringForm
                    if high & highBits != 0 {
                        form = escaped ? .escaped : .plain
                    } else {
                        form = escaped ? .escapedASCII : .ascii
                    }
                    return (start, offset, form)
                }
                if byte < 0x20 {
                    index = offset
                    throw error("a control character in a string")
                }
                if byte == UInt8(ascii: "\\") {
                    escaped = true
                    guard offset + 1 < count else { break scan }
                    switch base[offset + 1] {
                    case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"),
                        UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
                        offset += 2
                    case UInt8(ascii: "u"):
                        guard offset + 6 <= count, (offset + 2..<offset + 6).allSatisfy({ hexValue(base[$0]) != nil }) else {
                            index = offset
                            throw error("expected four hex digits after \\u")
                        }
                        offset += 6
                    default:
                        index = offset
                        throw error("an unknown escape in a string")
                    }
                    continue scan
                }
                high |= UInt64(byte)
                offset += 1
            }
            break
        }
        index = offset
        throw JSONScanError(offset: start - 1, reason: "the string is not closed")
    }

    /// Consumes `text` when the bytes after whitespace are exactly it (a key with its quotes and
    /// colon, `"id":`, as serve writes one): what ``readKey(matching:)`` and `expect(":")` would
    /// read, without scanning the key as a string. - Returns: whether it was there.
    mutating func consume(_ text: StaticString) -> Bool {
        skipWhitespace()
        let count = text.utf8CodeUnitCount
        guard bytes.count - index >= count, let base = bytes.baseAddress else { return false }
        guard memcmp(base + index, text.utf8Start, count) == 0 else { return false }
        index += count
        return true
    }

    /// Reads an object key. - Returns: the index of the name in `names` it equals, or `nil`.
    /// Keys without escapes (serve's) compare byte by byte, without building a String.
    mutating func readKey(matching names: [StaticString]) throws -> Int? {
        let (start, end, form) = try scanString()
        guard form == .ascii else {
            // A key with escapes: compare its unescaped text (rare; serve writes none).
            index = start - 1
            let text = try readString()
            return names.firstIndex { name in name.withUTF8Buffer { text.utf8.elementsEqual($0) } }
        }
        let count = end - start
        guard let base = bytes.baseAddress else { return nil }
        let key = base + start
        return names.firstIndex { name in
            guard name.utf8CodeUnitCount == count else { return false }
            let text = name.utf8Start
            for offset in 0..<count where key[offset] != text[offset] { return false }
            return true
        }
    }

    private func hexValue(_ byte: UInt8) -> UInt16? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return UInt16(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return UInt16(byte - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return UInt16(byte - UInt8(ascii: "A") + 10)
        default: return nil
        }
    }

    private func hex4(at offset: Int) -> UInt16 {
        (0..<4).reduce(0) { $0 << 4 | (hexValue(bytes[offset + $1]) ?? 0) }
    }

    // MARK: - Skipping

    /// Checks any value (nested arrays and objects included) and consumes it, building nothing.
    /// - Throws: ``JSONScanError`` for malformed JSON or nesting deeper than ``maximumDepth``.
    mutating func skipValue(depth: Int = 0) throws {
        guard depth < Self.maximumDepth else { throw error("nested more than \(Self.maximumDepth) deep") }
        switch peek() {
        case UInt8(ascii: "{"):
            index += 1
            if peek() == UInt8(ascii: "}") {
                index += 1
                return
            }
            repeat {
                try skipString()
                try expect(UInt8(ascii: ":"))
                try skipValue(depth: depth + 1)
            } while try next(close: UInt8(ascii: "}"))
        case UInt8(ascii: "["):
            index += 1
            if peek() == UInt8(ascii: "]") {
                index += 1
                return
            }
            repeat { try skipValue(depth: depth + 1) } while try next(close: UInt8(ascii: "]"))
        case UInt8(ascii: "\""): try skipString()
        case UInt8(ascii: "t"), UInt8(ascii: "f"): _ = try readBool()
        case UInt8(ascii: "n"):
            guard readNull() else { throw error("expected null") }
        default: _ = try readNumber()
        }
    }
}

extension JSONByteReader {
    /// Checks a string (a value or a key) as ``readString()`` does and consumes it, building a
    /// String only when it has escapes.
    mutating func skipString() throws {
        let (start, end, form) = try scanString()
        switch form {
        case .ascii: break
        case .plain:
            guard String(validating: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self) != nil else {
                throw JSONScanError(offset: start, reason: "the string is not valid UTF-8")
            }
        case .escaped, .escapedASCII:
            // Escapes were checked by the scan; surrogates and the UTF-8 they make are checked here.
            index = start - 1
            _ = try readString()
        }
    }
}

/// Malformed JSON, or JSON of another shape than the reader expected.
struct JSONScanError: Error, CustomStringConvertible, Equatable {
    /// Byte offset into the document.
    var offset: Int
    var reason: String
    var description: String { "byte \(offset): \(reason)" }
}
