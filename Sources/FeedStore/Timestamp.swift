import FeedModel
/// ISO 8601 UTC timestamps ↔ Unix milliseconds, without a formatter or the local time zone.
public enum Timestamp {
    /// The timestamps the store accepts from outside (imports, `seed --start`): 1970-01-01T00:00:00Z
    /// to 9999-12-31T23:59:59.999Z in Unix milliseconds.
    public static let storedRange = NewItem.publishedAtRange

    /// `a + b`, or `Int64.max` / `Int64.min` where it would overflow (timestamps and ids that reach
    /// the end of the range stay there instead of trapping).
    public static func saturatingAdd(_ a: Int64, _ b: Int64) -> Int64 {
        let (sum, overflow) = a.addingReportingOverflow(b)
        return overflow ? (b > 0 ? Int64.max : Int64.min) : sum
    }

    /// Parses `YYYY-MM-DDTHH:MM:SS[.fff](Z|±HH:MM)`, or a bare date `YYYY-MM-DD` (midnight UTC).
    /// - Returns: Unix milliseconds, or `nil` when the text is not of that shape or out of range.
    public static func milliseconds(iso8601 text: String) -> Int64? {
        let bytes = Array(text.utf8)
        var index = 0
        func number(_ digits: Int) -> Int? {
            guard index + digits <= bytes.count else { return nil }
            var value = 0
            for byte in bytes[index..<index + digits] {
                guard byte >= 48 && byte <= 57 else { return nil }
                value = value * 10 + Int(byte - 48)
            }
            index += digits
            return value
        }
        func expect(_ character: UInt8) -> Bool {
            guard index < bytes.count, bytes[index] == character else { return false }
            index += 1
            return true
        }
        guard let year = number(4), expect(45), let month = number(2), expect(45), let day = number(2),
            (1...12).contains(month), (1...daysIn(month: month, year: year)).contains(day)
        else { return nil }
        var seconds = 0
        var millis = 0
        if index < bytes.count {
            guard expect(84) || expect(32), let hour = number(2), expect(58), let minute = number(2), expect(58),
                let second = number(2), hour < 24, minute < 60, second < 61
            else { return nil }
            seconds = hour * 3600 + minute * 60 + second
            if expect(46) {  // '.': fraction, keep milliseconds
                var scale = 100
                var digits = 0
                while index < bytes.count, bytes[index] >= 48 && bytes[index] <= 57 {
                    millis += Int(bytes[index] - 48) * scale
                    scale /= 10
                    digits += 1
                    index += 1
                }
                guard digits > 0 else { return nil }
            }
            if expect(90) {  // 'Z'
            } else if index < bytes.count, bytes[index] == 43 || bytes[index] == 45 {  // '+' or '-'
                let sign = bytes[index] == 43 ? 1 : -1
                index += 1
                guard let offsetHours = number(2), expect(58), let offsetMinutes = number(2), offsetHours < 24,
                    offsetMinutes < 60
                else { return nil }
                seconds -= sign * (offsetHours * 3600 + offsetMinutes * 60)
            } else {
                return nil
            }
            guard index == bytes.count else { return nil }
        }
        let days = daysFromCivil(year: year, month: month, day: day)
        return (Int64(days) * 86_400 + Int64(seconds)) * 1000 + Int64(millis)
    }

    /// `YYYY-MM-DDTHH:MM:SS.mmmZ` for Unix milliseconds.
    public static func iso8601(milliseconds: Int64) -> String {
        let (days, rest) = floorDivision(milliseconds, 86_400_000)
        let (year, month, day) = civilFromDays(Int(days))
        let ms = Int(rest)
        func pad(_ value: Int, _ width: Int) -> String {
            let text = String(value)
            return String(repeating: "0", count: max(0, width - text.count)) + text
        }
        return "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))T\(pad(ms / 3_600_000, 2)):"
            + "\(pad(ms / 60_000 % 60, 2)):\(pad(ms / 1000 % 60, 2)).\(pad(ms % 1000, 3))Z"
    }

    private static func floorDivision(_ a: Int64, _ b: Int64) -> (Int64, Int64) {
        let q = a / b
        let r = a % b
        return r < 0 ? (q - 1, r + b) : (q, r)
    }

    private static func daysIn(month: Int, year: Int) -> Int {
        let leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
        return [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]
    }

    /// Days since 1970-01-01 (proleptic Gregorian); H. Hinnant, "chrono-Compatible Low-Level Date
    /// Algorithms", `days_from_civil`.
    static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let doy = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    /// Inverse of ``daysFromCivil(year:month:day:)`` (Hinnant's `civil_from_days`).
    static func civilFromDays(_ days: Int) -> (year: Int, month: Int, day: Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let day = doy - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yoe + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}
