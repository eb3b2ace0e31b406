import FeedModel

/// Deterministic mutations of a valid input (one SplitMix64 stream per case), aimed at what
/// breaks readers: truncation, byte flips, extreme numbers, wrong types, duplicate keys and
/// columns, a byte-order mark, CRLF or CR line ends, deep nesting, long lines, invalid UTF-8,
/// and chunks deleted, repeated or moved.
public struct FuzzMutator {
    /// The kinds of mutation, each chosen with equal weight.
    public enum Kind: String, CaseIterable, Sendable {
        case truncate, flipBytes, extremeNumber, wrongType, duplicateKey, byteOrderMark, lineEnds, deepNesting
        case longLine, invalidUTF8, deleteChunk, repeatChunk, swapLines, hugeTimeGap
    }

    /// Numbers that overflow `Int`, `Int32`, `Double`, the trace limits, or are not numbers at all.
    static let extremeNumbers = [
        "1e300", "-1e300", "1e999", "-1e999", "9223372036854775807", "9223372036854775808", "-9223372036854775808",
        "18446744073709551616", "2147483647", "2147483648", "-2147483649", "4294967296", "999999999999", "1e12",
        "86400001", "1e-300", "-0", "0", "-1", "NaN", "Infinity", "-Infinity", "0.0000001", "123456789012345678901234567890",
        "1.7976931348623157e308", "4.9e-324", "00", "1.", ".5", "1e", "0x10",
    ]
    static let wrongTypes = ["\"x\"", "\"\"", "null", "true", "false", "[]", "{}", "[1,2]", "{\"a\":1}", "\"1e300\"", "\"NaN\""]
    static let words = ["x", "", "DOWN", "UP", "MOVE", "SCROLL", "down", "-", "\"", "\"\"", ",", "E:", "A:", "#", " "]
    static let invalidUTF8: [[UInt8]] = [[0xFF], [0xC0, 0x80], [0xED, 0xA0, 0x80], [0xE2, 0x82], [0xF4, 0x90, 0x80, 0x80], [0x80]]

    private var random: SplitMix64

    public init(seed: UInt64) {
        random = SplitMix64(seed: seed)
    }

    private mutating func below(_ n: Int) -> Int { n <= 1 ? 0 : Int(random.next() % UInt64(n)) }
    private mutating func pick<T>(_ list: [T]) -> T { list[below(list.count)] }

    /// One to three mutations of `input`; `kinds` receives their names in order.
    public mutating func mutate(_ input: [UInt8], isJSON: Bool, kinds: inout [Kind]) -> [UInt8] {
        var bytes = input
        for _ in 0...below(3) {
            let kind = pick(Kind.allCases)
            kinds.append(kind)
            bytes = apply(kind, to: bytes, isJSON: isJSON)
        }
        return bytes
    }

    /// Spans of number tokens: a digit or a minus sign followed by digits, `.`, `e`, `E`, `+`, `-`.
    private func numberSpans(_ bytes: [UInt8]) -> [Range<Int>] {
        var spans: [Range<Int>] = []
        var i = 0
        func isDigit(_ b: UInt8) -> Bool { b >= 0x30 && b <= 0x39 }
        while i < bytes.count {
            let startsNumber = isDigit(bytes[i]) || (bytes[i] == UInt8(ascii: "-") && i + 1 < bytes.count && isDigit(bytes[i + 1]))
            // Only at a token start (not inside a word such as a hex code's tail).
            if startsNumber, i == 0 || !Self.isWordByte(bytes[i - 1]) {
                let start = i
                i += 1
                while i < bytes.count, isDigit(bytes[i]) || [0x2E, 0x65, 0x45, 0x2B, 0x2D].contains(bytes[i]) { i += 1 }
                spans.append(start..<i)
                if spans.count >= 4096 { break }
            } else {
                i += 1
            }
        }
        return spans
    }

    private static func isWordByte(_ b: UInt8) -> Bool {
        (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A) || b == 0x5F || b == 0x2E
    }

    private func lineStarts(_ bytes: [UInt8]) -> [Int] {
        var starts = [0]
        for (i, b) in bytes.enumerated() where b == 0x0A && i + 1 < bytes.count { starts.append(i + 1) }
        return starts
    }

    private mutating func apply(_ kind: Kind, to input: [UInt8], isJSON: Bool) -> [UInt8] {
        var bytes = input
        let count = bytes.count
        switch kind {
        case .truncate:
            return Array(bytes.prefix(below(count + 1)))
        case .flipBytes:
            guard count > 0 else { return bytes }
            for _ in 0...below(8) {
                let at = below(count)
                bytes[at] ^= UInt8(truncatingIfNeeded: 1 << below(8)) | (below(4) == 0 ? 0xFF : 0)
            }
            return bytes
        case .extremeNumber:
            let spans = numberSpans(bytes)
            guard !spans.isEmpty else { return bytes }
            let span = pick(spans)
            bytes.replaceSubrange(span, with: Array(pick(Self.extremeNumbers).utf8))
            return bytes
        case .wrongType:
            let spans = numberSpans(bytes)
            guard !spans.isEmpty else { return bytes }
            let span = pick(spans)
            bytes.replaceSubrange(span, with: Array((isJSON ? pick(Self.wrongTypes) : pick(Self.words)).utf8))
            return bytes
        case .duplicateKey:
            if isJSON {
                // Repeat a `"key": ` right after itself with another value: {"a":1} → {"a":0,"a":1}.
                var keys: [Int] = []
                for i in 0..<count where bytes[i] == UInt8(ascii: "\"") && i > 0 && [0x7B, 0x2C, 0x20, 0x0A].contains(bytes[i - 1]) {
                    keys.append(i)
                    if keys.count >= 4096 { break }
                }
                guard !keys.isEmpty else { return bytes }
                let start = pick(keys)
                guard let close = bytes[(start + 1)...].firstIndex(of: UInt8(ascii: "\"")) else { return bytes }
                var insert = Array(bytes[start...close])
                insert += Array((":" + pick(Self.extremeNumbers + Self.wrongTypes) + ",").utf8)
                bytes.insert(contentsOf: insert, at: start)
                return bytes
            }
            // Text formats: repeat the header's first field at its end, or repeat a line.
            if below(2) == 0, let end = bytes.firstIndex(of: 0x0A) {
                let first = bytes[..<end].split(separator: UInt8(ascii: ",")).first.map(Array.init) ?? []
                bytes.insert(contentsOf: [UInt8(ascii: ",")] + first, at: end > 0 && bytes[end - 1] == 0x0D ? end - 1 : end)
                return bytes
            }
            let starts = lineStarts(bytes)
            let start = pick(starts)
            let end = (bytes[start...].firstIndex(of: 0x0A) ?? count - 1) + 1
            bytes.insert(contentsOf: Array(bytes[start..<min(end, count)]), at: start)
            return bytes
        case .byteOrderMark:
            return [0xEF, 0xBB, 0xBF] + bytes
        case .lineEnds:
            let replacement: [UInt8] = below(3) == 0 ? [0x0D] : [0x0D, 0x0A]
            var out: [UInt8] = []
            out.reserveCapacity(count + count / 16)
            for b in bytes {
                if b == 0x0A { out += replacement } else { out.append(b) }
            }
            return out
        case .deepNesting:
            let depth = pick([40, 600, 20_000])
            let open: [UInt8] = Array((below(2) == 0 ? "[" : "{\"a\":").utf8)
            let close: [UInt8] = open.count == 1 ? [UInt8(ascii: "]")] : [UInt8(ascii: "}")]
            let spans = numberSpans(bytes)
            let nested = Array(repeating: open, count: depth).flatMap { $0 } + Array("1".utf8)
                + Array(repeating: close, count: depth).flatMap { $0 }
            if let span = spans.isEmpty ? nil : pick(spans) {
                bytes.replaceSubrange(span, with: nested)
            } else {
                bytes.insert(contentsOf: nested, at: below(count + 1))
            }
            return bytes
        case .longLine:
            let length = pick([4096, 70_000])
            let filler: UInt8 = pick([UInt8(ascii: "a"), UInt8(ascii: "9"), UInt8(ascii: " "), UInt8(ascii: ",")])
            bytes.insert(contentsOf: [UInt8](repeating: filler, count: length), at: below(count + 1))
            return bytes
        case .invalidUTF8:
            bytes.insert(contentsOf: pick(Self.invalidUTF8), at: below(count + 1))
            return bytes
        case .deleteChunk:
            guard count > 0 else { return bytes }
            let start = below(count)
            bytes.removeSubrange(start..<min(count, start + 1 + below(64)))
            return bytes
        case .repeatChunk:
            guard count > 0 else { return bytes }
            let start = below(count)
            let chunk = Array(bytes[start..<min(count, start + 1 + below(128))])
            bytes.insert(contentsOf: chunk, at: below(count + 1))
            return bytes
        case .swapLines:
            let starts = lineStarts(bytes)
            guard starts.count >= 3 else { return bytes }
            var lines: [[UInt8]] = []
            for (k, s) in starts.enumerated() {
                lines.append(Array(bytes[s..<(k + 1 < starts.count ? starts[k + 1] : count)]))
            }
            let a = below(lines.count), b = below(lines.count)
            lines.swapAt(a, b)
            return lines.flatMap { $0 }
        case .hugeTimeGap:
            // The last number on a late line made enormous: the "valid trace lasting 61 hours" case.
            let spans = numberSpans(bytes)
            let late = Array(spans.dropFirst(spans.count * 3 / 4))
            guard !late.isEmpty else { return bytes }
            let span = pick(late)
            bytes.replaceSubrange(span, with: Array(pick(["999999999999", "86400000", "86400001", "1e11", "100000000000000"]).utf8))
            return bytes
        }
    }
}
