import Foundation

/// One record of a CSV file.
struct CSVRecord {
    /// The 1-based line the record starts on (the header is line 1).
    let line: Int
    let fields: [String]
}

/// A malformed CSV file or field: where and what.
struct CSVError: Error, CustomStringConvertible, Equatable {
    let fileName: String
    let line: Int
    let message: String

    var description: String { "\(fileName), line \(line): \(message)" }
}

/// Reads CSV as RFC 4180 defines it: comma-separated fields, CRLF or LF line ends, fields in double quotes
/// that may hold commas, line breaks and doubled quotes (`""` for `"`). The logic is the sample's
/// (Examples/CountriesCities/CSVReader.swift), working on bytes: the benchmark has no access to the sample's
/// target. See <https://www.rfc-editor.org/rfc/rfc4180>.
enum CSVReader {
    /// Parses CSV bytes, which must be UTF-8, into the header (the first record) and the records after it.
    /// - Throws: ``CSVError`` naming `fileName` and the line: invalid UTF-8, an unterminated quoted field, a
    ///   quote inside an unquoted field, text after a closing quote, a record with a different number of
    ///   fields than the header, or no header.
    static func parse(_ data: Data, fileName: String) throws -> (header: [String], records: [CSVRecord]) {
        guard String(data: data, encoding: .utf8) != nil else {
            throw CSVError(fileName: fileName, line: 1, message: "the file is not valid UTF-8")
        }
        let bytes = [UInt8](data)
        var rows: [CSVRecord] = []
        var fields: [String] = []
        var field: [UInt8] = []
        var line = 1
        var recordLine = 1
        var inQuotes = false
        var quotedFieldLine = 0
        var afterClosingQuote = false
        var fieldStarted = false

        func endField() {
            fields.append(String(decoding: field, as: UTF8.self))
            field.removeAll(keepingCapacity: true)
            afterClosingQuote = false
            fieldStarted = false
        }
        func endRecord() {
            endField()
            rows.append(CSVRecord(line: recordLine, fields: fields))
            fields.removeAll(keepingCapacity: true)
        }

        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if inQuotes {
                if byte == UInt8(ascii: "\"") {
                    if index + 1 < bytes.count && bytes[index + 1] == UInt8(ascii: "\"") {
                        field.append(byte)
                        index += 1
                    } else {
                        inQuotes = false
                        afterClosingQuote = true
                    }
                } else {
                    if byte == UInt8(ascii: "\n") { line += 1 }
                    field.append(byte)
                }
                index += 1
                continue
            }
            switch byte {
            case UInt8(ascii: ","):
                endField()
                fieldStarted = true
            case UInt8(ascii: "\r") where index + 1 < bytes.count && bytes[index + 1] == UInt8(ascii: "\n"):
                break  // the LF that follows ends the record
            case UInt8(ascii: "\n"):
                endRecord()
                line += 1
                recordLine = line
            case UInt8(ascii: "\""):
                guard field.isEmpty && !afterClosingQuote else {
                    throw CSVError(
                        fileName: fileName, line: line,
                        message: afterClosingQuote
                            ? "a quote follows a closing quote; write a quote inside a quoted field as \"\""
                            : "a quote inside an unquoted field; quote the whole field and double the quote")
                }
                inQuotes = true
                quotedFieldLine = line
                fieldStarted = true
            default:
                guard !afterClosingQuote else {
                    throw CSVError(
                        fileName: fileName, line: line,
                        message: "text after the closing quote of a field; a quoted field must end at a comma or "
                            + "line end")
                }
                field.append(byte)
                fieldStarted = true
            }
            index += 1
        }
        if inQuotes {
            throw CSVError(fileName: fileName, line: quotedFieldLine, message: "a quoted field is never closed")
        }
        if fieldStarted || !field.isEmpty || !fields.isEmpty || afterClosingQuote {
            endRecord()  // a last record without a line end
        }

        guard let header = rows.first else {
            throw CSVError(fileName: fileName, line: 1, message: "the file is empty; expected a header line")
        }
        let records = Array(rows.dropFirst())
        for record in records where record.fields.count != header.fields.count {
            throw CSVError(
                fileName: fileName, line: record.line,
                message: "expected \(header.fields.count) fields as in the header, found \(record.fields.count)")
        }
        return (header.fields, records)
    }
}
