/// The storage type of an attribute, independent of the Swift type a model declares.
///
/// Every attribute type a model may declare maps to one `ValueType`: sized integers widen to
/// ``int`` or ``uint``, `Float` to ``double``, enums to their raw value's type and `Codable`
/// structs to ``composite(_:)``. The engine keeps one typed column per attribute of this type.
public indirect enum ValueType: Sendable, Hashable, CustomStringConvertible {
  /// `Bool`.
  case bool
  /// Signed integers of every width, stored as 64 bits.
  case int
  /// Unsigned integers of every width, stored as 64 bits.
  case uint
  /// `Double` and `Float`, stored as `Double`.
  case double
  /// `String`.
  case string
  /// `Date`.
  case date
  /// `UUID`.
  case uuid
  /// `URL`.
  case url
  /// `Data`.
  case data
  /// `Decimal`.
  case decimal
  /// A `Codable` struct named by its type, stored as encoded bytes.
  case composite(String)
  /// An array of values of one type.
  case array(ValueType)

  /// The type's name as schemas and the runner print it.
  public var description: String {
    switch self {
    case .bool: "Bool"
    case .int: "Int"
    case .uint: "UInt"
    case .double: "Double"
    case .string: "String"
    case .date: "Date"
    case .uuid: "UUID"
    case .url: "URL"
    case .data: "Data"
    case .decimal: "Decimal"
    case .composite(let name): name
    case .array(let element): "[\(element)]"
    }
  }
}
