public import Foundation

/// A dynamically typed attribute value, as the runner, snapshots and diagnostics see it.
///
/// Typed model code never goes through `ModelValue`: columns hold their values unboxed. It is
/// the currency of the dynamic API, where the type of a value is only known at run time.
public enum ModelValue: Sendable, Hashable, CustomStringConvertible {
  /// No value (an optional attribute that is `nil`).
  case null
  /// A Boolean.
  case bool(Bool)
  /// A signed integer.
  case int(Int64)
  /// An unsigned integer.
  case uint(UInt64)
  /// A floating-point number.
  case double(Double)
  /// A string.
  case string(String)
  /// A point in time.
  case date(Date)
  /// A UUID.
  case uuid(UUID)
  /// A URL.
  case url(URL)
  /// Bytes (also the encoded form of a composite value).
  case data(Data)
  /// A decimal number.
  case decimal(Decimal)
  /// An array of values.
  case array([ModelValue])

  /// Whether this is ``null``.
  public var isNull: Bool {
    if case .null = self { return true }
    return false
  }

  /// The value as the runner prints it: strings quoted, dates in ISO 8601.
  public var description: String {
    switch self {
    case .null: "nil"
    case .bool(let value): value ? "true" : "false"
    case .int(let value): String(value)
    case .uint(let value): String(value)
    case .double(let value): String(value)
    case .string(let value): "\"\(value)\""
    case .date(let value): Self.iso8601.format(value)
    case .uuid(let value): value.uuidString
    case .url(let value): value.absoluteString
    case .data(let value): "<\(value.count) bytes>"
    case .decimal(let value): value.description
    case .array(let values): "[" + values.map(\.description).joined(separator: ", ") + "]"
    }
  }

  /// The ISO 8601 style of ``description``, made once (making one per date cost as much as
  /// formatting it).
  private static let iso8601 = Date.ISO8601FormatStyle()
}
