import FeedModel
import Foundation

/// RFC 4180 CSV: fields separated by commas, records by CRLF or LF; a field in double quotes may
/// hold commas, line breaks and doubled quotes (`""`).
enum CSVReader {
    struct Record: Equatable {
        /// 1-based line on which the record starts.
        var line: Int
        var fields: [String]
    }

    /// Splits `text` into records.
    /// - Throws: ``ImportError`` for a quote left open or text right after a closing quote.
    static func records(_ text: String, file: String) throws -> [Record] {
        var records: [Record] = []
        var fields: [String] = []
        var field: [UInt8] = []
        var line = 1
        var recordLine = 1
        var inQuotes = false
        var quotedField = false
        let bytes = Array(text.utf8)
        var index = 0
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
                    throw ImportError(
                        file: file, location: "line \(line)", field: "", reason: "text after a closing quote")
                }
                field.append(byte)
            }
        }
        if inQuotes {
            throw ImportError(
                file: file, location: "line \(recordLine)", field: "", reason: "unterminated quoted field")
        }
        if !field.isEmpty || !fields.isEmpty || quotedField {
            endField()
            records.append(Record(line: recordLine, fields: fields))
        }
        return records
    }
}

/// Writes items as CSV with the store's column names (the format `feedsim import --format csv` reads).
public enum ItemCSV {
    /// CSV text: a header of `columns`, then one line per item, LF line ends.
    /// - Parameter columns: a subset of ``ItemImporter/columns``, in output order.
    public static func render(_ items: [NewItem], columns: [String]) -> String {
        var text = columns.joined(separator: ",") + "\n"
        for item in items {
            let fields = columns.map { column -> String in
                switch column {
                case "id": return item.id.map(String.init) ?? ""
                case "published_at": return String(item.publishedAt)
                case "kind": return quote(item.kind)
                case "width": return number(item.width)
                case "height": return number(item.height)
                case "title": return quote(item.title)
                case "author": return quote(item.author)
                case "payload": return quote(item.payload)
                default: preconditionFailure("unknown column \(column)")
                }
            }
            text += fields.joined(separator: ",") + "\n"
        }
        return text
    }

    /// Whole numbers without a decimal point (`320`, not `320.0`).
    private static func number(_ value: Double) -> String {
        value.rounded() == value && abs(value) < 1e15 ? String(Int64(value)) : String(value)
    }

    private static func quote(_ text: String) -> String {
        guard text.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return text }
        return "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
