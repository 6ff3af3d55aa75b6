import ModelGraphCore

/// A JSON array with one object per row; dates as ISO 8601 strings, data as Base64, a
/// non-finite `Double` and a `Decimal` NaN as strings (`"nan"`, `"NaN"`).
enum JSONFormat {
  static func render(_ result: ResultSet) -> String {
    guard !result.rows.isEmpty else { return "[]\n" }
    let objects = result.rows.map { row in
      let fields = zip(result.columns, row).compactMap { column, value in
        value.map { "\(quote(column)): \(json($0))" }
      }
      return "  {" + fields.joined(separator: ", ") + "}"
    }
    return "[\n" + objects.joined(separator: ",\n") + "\n]\n"
  }

  /// A value in JSON.
  static func json(_ value: ModelValue) -> String {
    switch value {
    case .null: "null"
    case .bool(let flag): flag ? "true" : "false"
    case .int(let number): String(number)
    case .uint(let number): String(number)
    case .double(let number): number.isFinite ? String(number) : quote(String(number))
    case .decimal(let number): number.isNaN ? quote(number.description) : number.description
    case .array(let values): "[" + values.map(json).joined(separator: ", ") + "]"
    default: quote(plainText(value))
    }
  }

  static func quote(_ text: String) -> String {
    var result = "\""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\"": result += "\\\""
      case "\\": result += "\\\\"
      case "\n": result += "\\n"
      case "\r": result += "\\r"
      case "\t": result += "\\t"
      default:
        if scalar.value < 0x20 {
          let hex = String(scalar.value, radix: 16)
          result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
        } else {
          result.unicodeScalars.append(scalar)
        }
      }
    }
    return result + "\""
  }
}
