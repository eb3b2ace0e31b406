/// Values bound to a prepared statement's `$1 … $n`, in PostgreSQL's text format, packed into one
/// buffer so a call allocates once rather than once per value.
///
/// Every value is bound, never spliced into SQL: integers and doubles are printed by Swift, text is
/// passed as it is (NUL bytes are refused by PostgreSQL's text type, so they cannot occur in a valid value).
struct PostgresParameters {
    private(set) var bytes: [CChar] = []
    /// Start of each value in `bytes`, or -1 for NULL.
    private(set) var offsets: [Int] = []

    init() {
        bytes.reserveCapacity(64)
        offsets.reserveCapacity(4)
    }

    var count: Int { offsets.count }

    mutating func append(_ value: Int64) {
        appendText(String(value))
    }

    mutating func append(_ value: Int) {
        appendText(String(value))
    }

    mutating func append(_ value: Double) {
        // Swift's description round-trips exactly ("1080.0", "1.5e-05"); PostgreSQL parses it as float8.
        appendText(value.description)
    }

    mutating func append(_ value: String) {
        appendText(value)
    }

    /// An array of bigints as PostgreSQL's array literal `{1,2,3}`, bound as one `bigint[]` parameter.
    mutating func append(_ values: [Int64]) {
        offsets.append(bytes.count)
        bytes.append(123)  // "{"
        for (index, value) in values.enumerated() {
            if index > 0 { bytes.append(44) }  // ","
            for unit in String(value).utf8 { bytes.append(CChar(bitPattern: unit)) }
        }
        bytes.append(125)  // "}"
        bytes.append(0)
    }

    mutating func appendNull() {
        offsets.append(-1)
    }

    private mutating func appendText(_ text: String) {
        offsets.append(bytes.count)
        var text = text
        text.withUTF8 { buffer in
            for unit in buffer { bytes.append(CChar(bitPattern: unit)) }
        }
        bytes.append(0)
    }

    /// Calls `body` with the C array of value pointers (`nil` for NULL), valid only during the call.
    func withValuePointers<T>(_ body: (UnsafePointer<UnsafePointer<CChar>?>?) throws -> T) rethrows -> T {
        try bytes.withUnsafeBufferPointer { buffer in
            var pointers: [UnsafePointer<CChar>?] = offsets.map { offset in
                offset < 0 ? nil : buffer.baseAddress.map { $0 + offset }
            }
            return try pointers.withUnsafeMutableBufferPointer { try body(UnsafePointer($0.baseAddress)) }
        }
    }
}
