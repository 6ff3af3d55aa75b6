import Foundation
import ModelGraphCore

/// Values written as script text that reads back as the same value: what `.dump` prints.
enum ScriptLiteral {
  /// `value` as a literal, or `nil` for a value no literal holds (`Data` that is not UTF-8
  /// text, a `Decimal` NaN, a date out of the years 0001 to 9999).
  ///
  /// An infinity is `1e400` (a literal past `Double`'s range reads as one, as in Swift) or
  /// `-1e400`, and NaN `1e400 - 1e400` (an expression, which `insert` and `update` take; its
  /// sign and payload are not kept). A date has as many fraction digits as it needs to read back
  /// as itself.
  static func text(_ value: ModelValue) -> String? {
    switch value {
    case .null: return "nil"
    case .bool(let flag): return flag ? "true" : "false"
    case .int(let number): return String(number)
    case .uint(let number): return String(number)
    case .double(let number):
      if number.isNaN { return "1e400 - 1e400" }
      if number.isInfinite { return number < 0 ? "-1e400" : "1e400" }
      let text = String(number)
      return text.contains(".") || text.contains("e") ? text : text + ".0"
    case .decimal(let number): return number.isNaN ? nil : number.description
    case .string(let text): return quote(text)
    case .date(let date): return DateLiteral.literal(date)
    case .uuid(let uuid): return quote(uuid.uuidString)
    case .url(let url): return quote(url.absoluteString)
    case .data(let data):
      guard let text = String(data: data, encoding: .utf8) else { return nil }
      return quote(text)
    case .array(let values):
      var parts: [String] = []
      for element in values {
        guard let part = text(element) else { return nil }
        parts.append(part)
      }
      return "[" + parts.joined(separator: ", ") + "]"
    }
  }

  /// A double-quoted string literal with `\\`, `\"`, `\n`, `\r` and `\t` escaped, and other
  /// control characters and line or paragraph separators as `\u{…}`, so that it stays on one
  /// line and shows what it holds.
  static func quote(_ text: String) -> String {
    var result = "\""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\\": result += "\\\\"
      case "\"": result += "\\\""
      default:
        if let escape = controlEscape(scalar) {
          result += escape
        } else {
          result.unicodeScalars.append(scalar)
        }
      }
    }
    return result + "\""
  }

  /// `\n`, `\r` or `\t` for a line break or tab, `\u{…}` for another control character or a
  /// line or paragraph separator, `nil` for any other scalar.
  static func controlEscape(_ scalar: Unicode.Scalar) -> String? {
    switch scalar {
    case "\n": return "\\n"
    case "\r": return "\\r"
    case "\t": return "\\t"
    default:
      switch scalar.properties.generalCategory {
      case .control, .lineSeparator, .paragraphSeparator:
        return "\\u{" + String(scalar.value, radix: 16) + "}"
      default: return nil
      }
    }
  }
}
