import Foundation

/// RFC 4180 CSV: fields separated by commas, records by CRLF or LF; a field in double quotes may
/// hold commas, line breaks and doubled quotes (`""`). The one CSV reader of the item importer
/// (`feedsim import --format csv`) and the touch CSV trace importer.
public enum CSVReader {
    /// A quote left open, or text right after a closing quote, on a 1-based line.
    public struct SyntaxError: Error, Equatable, Sendable {
        public var line: Int
        public var reason: String
    }

    public struct Record: Equatable, Sendable {
        /// 1-based line on which the record starts.
        public var line: Int
        public var fields: [String]
    }

    /// Splits `text` into records; a byte-order mark at the start (as spreadsheets write) is skipped.
    /// - Throws: ``SyntaxError`` for a quote left open or text right after a closing quote.
    public static func records(_ text: String) throws(SyntaxError) -> [Record] {
        var records: [Record] = []
        var fields: [String] = []
        var field: [UInt8] = []
        var line = 1
        var recordLine = 1
        var inQuotes = false
        var quotedField = false
        let bytes = Array(text.utf8)
        // A leading byte-order mark (EF BB BF) is not part of the first field.
        var index = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        func endField() {
            fields.append(String(decoding: field, as: UTF8.self))
            field.removeAll(keepingCapacity: true)
            quotedField = false
        }
        while index < bytes.count {
            let byte = bytes[index]
            index += 1
            if inQuotes {
                if byte == UInt8(ascii: "\"") {
                    if index < bytes.count && bytes[index] == UInt8(ascii: "\"") {
                        field.append(byte)
                        index += 1
                    } else {
                        inQuotes = false
                    }
                } else {
                    if byte == UInt8(ascii: "\n") { line += 1 }
                    field.append(byte)
                }
                continue
            }
            switch byte {
            case UInt8(ascii: ","):
                endField()
            case UInt8(ascii: "\r") where index < bytes.count && bytes[index] == UInt8(ascii: "\n"):
                continue
            case UInt8(ascii: "\n"):
                endField()
                records.append(Record(line: recordLine, fields: fields))
                fields.removeAll()
                line += 1
                recordLine = line
            case UInt8(ascii: "\"") where field.isEmpty && !quotedField:
                inQuotes = true
                quotedField = true
            default:
                if quotedField {
                    throw SyntaxError(line: line, reason: "text after a closing quote")
                }
                field.append(byte)
            }
        }
        if inQuotes {
            throw SyntaxError(line: recordLine, reason: "unterminated quoted field")
        }
        if !field.isEmpty || !fields.isEmpty || quotedField {
            endField()
            records.append(Record(line: recordLine, fields: fields))
        }
        return records
    }
}
