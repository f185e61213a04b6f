#if PostgreSQL
import Foundation

/// One column value of a result row, read out of libpq's binary form into Swift values: what the decoders
/// convert from. Made by ``PostgresResult`` (the only code that touches libpq's result memory).
enum PostgresCell: Sendable, Equatable {
    case null
    /// `smallint`, `integer`, `bigint`, `oid`: the value and the column's SQL type name.
    case integer(Int64, type: UInt32)
    /// `double precision`.
    case double(Double)
    /// `real`.
    case float(Float)
    case bool(Bool)
    /// `text`, `varchar`, `char(n)`, `name`, and JSON (`json`, `jsonb` without its version byte).
    case text(String, type: UInt32)
    case bytea(Data)
    /// `timestamptz` and `timestamp` (read as UTC, the zone connections set): microseconds since
    /// 2000-01-01.
    case timestamp(Int64, type: UInt32)
    /// `date`: days since 2000-01-01.
    case date(Int32)
    case uuid(UUID)
    /// `numeric` as its exact decimal text (`-12.3400`, `NaN`, `Infinity`).
    case numeric(String)
    /// A type the library does not read: its OID and bytes.
    case other(type: UInt32, bytes: Data)
    /// An array of one of the types above (`text[]`, `bigint[]`...), its elements read as cells. Indirect, so
    /// that a cell stays as small as the scalar ones make it.
    indirect case array(PostgresArrayCell)

    /// The SQL type name, for messages.
    var typeName: String {
        switch self {
        case .null: return "NULL"
        case .integer(_, let type), .text(_, let type), .timestamp(_, let type): return PostgresType.name(type)
        case .double: return "DOUBLE PRECISION"
        case .float: return "REAL"
        case .bool: return "BOOLEAN"
        case .bytea: return "BYTEA"
        case .date: return "DATE"
        case .uuid: return "UUID"
        case .numeric: return "NUMERIC"
        case .other(let type, _): return PostgresType.name(type)
        case .array(let array): return array.typeName
        }
    }

    /// `BIGINT 42`, `TEXT 'Paris'`, `BYTEA <3 bytes>`: the stored value for an error message.
    var summary: String {
        switch self {
        case .null: return "NULL"
        case .integer(let value, _): return "\(typeName) \(value)"
        case .double(let value): return "\(typeName) \(value)"
        case .float(let value): return "\(typeName) \(value)"
        case .bool(let value): return "\(typeName) \(value)"
        case .text(let value, _):
            return "\(typeName) '\(value.count > 40 ? String(value.prefix(40)) + "..." : value)'"
        case .bytea(let data): return "BYTEA <\(data.count) bytes>"
        case .timestamp(let micros, _): return "\(typeName) \(micros) µs after 2000-01-01"
        case .date(let days): return "DATE \(days) days after 2000-01-01"
        case .uuid(let uuid): return "UUID \(uuid.uuidString.lowercased())"
        case .numeric(let text): return "NUMERIC \(text)"
        case .other(_, let bytes): return "\(typeName) <\(bytes.count) bytes>"
        case .array(let array): return array.summary
        }
    }
}
#endif
