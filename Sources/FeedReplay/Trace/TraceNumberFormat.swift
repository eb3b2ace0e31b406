/// Fixed number formatting for trace files: every number is rounded to 3 decimal places
/// (1 µs for times in milliseconds, 0.001 pt for lengths) and printed without an exponent,
/// without trailing zeros and without a locale, so the same trace always gives the same bytes.
package enum TraceNumberFormat {
    /// The largest magnitude written; past it the thousandths no longer fit in an `Int64`
    /// (9.2e15), and no screen or session is that large.
    package static let limit = 1e12

    /// `value` rounded to thousandths, as text: `12`, `-3.25`, `0.001`. Negative zero prints as `0`.
    /// - Precondition: `value` is finite and `abs(value) < limit` (the reader and the importers check).
    package static func format(_ value: Double) -> String {
        precondition(value.isFinite && abs(value) < limit, "trace number out of range: \(value)")
        let thousandths = Int64((value * 1000).rounded(.toNearestOrAwayFromZero))
        let magnitude = thousandths.magnitude
        var text = thousandths < 0 ? "-" : ""
        text += String(magnitude / 1000)
        var fraction = magnitude % 1000
        if fraction != 0 {
            var digits = 3
            while fraction % 10 == 0 {
                fraction /= 10
                digits -= 1
            }
            let body = String(fraction)
            text += "." + String(repeating: "0", count: digits - body.count) + body
        }
        return text
    }

    /// `value` for an error message: ``format(_:)`` when it is in range, else Swift's own text
    /// (`1e+300`, `inf`), so describing a bad number can never trap.
    static func describe(_ value: Double) -> String {
        value.isFinite && abs(value) < limit ? format(value) : "\(value)"
    }

    /// `value` as it will read back after a write: rounded to thousandths.
    package static func rounded(_ value: Double) -> Double {
        (value * 1000).rounded(.toNearestOrAwayFromZero) / 1000
    }
}
