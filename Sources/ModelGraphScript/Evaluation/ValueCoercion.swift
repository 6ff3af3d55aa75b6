import Foundation
import ModelGraphCore

/// Converts a script value to an attribute's storage type, or says why it cannot.
enum ValueCoercion {
  /// `value` as a value of `attribute`: integers widen to `Double` and `Decimal`, strings
  /// parse as dates, UUIDs and URLs, numbers round to the nearest `Float` for a `Float`
  /// attribute (as `Float(0.1)` does); `nil` only for an optional attribute.
  ///
  /// - Throws: ``ScriptError`` at `location` for a value of another type, or a finite number
  ///   beyond `Float`'s range for a `Float` attribute.
  static func coerce(
    _ value: ModelValue, to attribute: AttributeDescription, at location: SourceLocation
  )
    throws -> ModelValue
  {
    if value.isNull {
      guard attribute.isOptional else {
        throw ScriptError(
          "\(attribute.name) is \(attribute.valueType), not optional; it cannot be nil",
          at: location)
      }
      return .null
    }
    guard let converted = convert(value, to: attribute.valueType) else {
      if Binder.type(of: value).isNumeric, StaticType.scalar(attribute.valueType).isNumeric {
        throw ScriptError(
          "\(value) does not fit \(attribute.name) (\(attribute.valueType))", at: location)
      }
      throw ScriptError(
        "type mismatch: \(attribute.name) is \(attribute.valueType)\(attribute.isOptional ? "?" : ""),"
          + " not \(typeName(of: value))", at: location)
    }
    guard attribute.isFloat32 else { return converted }
    return try nearestFloat(converted, for: attribute, at: location)
  }

  /// `value` (a `Double`, or an array of them) rounded to the nearest `Float` value.
  ///
  /// - Throws: ``ScriptError`` at `location` for a finite value that would become infinite.
  static func nearestFloat(
    _ value: ModelValue, for attribute: AttributeDescription, at location: SourceLocation
  ) throws -> ModelValue {
    switch value {
    case .double(let number):
      let nearest = Float(number)
      guard nearest.isFinite || !number.isFinite else {
        throw ScriptError(
          "\(number) does not fit \(attribute.name) (Float): a Float's magnitude is at most "
            + "\(Float.greatestFiniteMagnitude)", at: location)
      }
      return .double(Double(nearest))
    case .array(let elements):
      return .array(try elements.map { try nearestFloat($0, for: attribute, at: location) })
    default:
      return value
    }
  }

  /// Refuses a number literal (`expression` itself, or a list's element) that a `Decimal`
  /// `attribute` cannot hold exactly: `1e-400` is no `Decimal`, and a literal with more than
  /// 38 significant digits would lose some. Other attributes take the nearest value.
  ///
  /// - Throws: ``ScriptError`` at the literal.
  static func checkDecimalLiteral(_ expression: Expression, for attribute: AttributeDescription)
    throws
  {
    let literals: [Expression]
    switch (attribute.valueType, expression.kind) {
    case (.decimal, _): literals = [expression]
    case (.array(.decimal), .list(let elements)): literals = elements
    default: return
    }
    for literal in literals {
      guard let text = literal.spelling, DecimalMath.exact(text) == nil else { continue }
      throw ScriptError(
        "\(text) does not fit \(attribute.name) (Decimal): a Decimal holds 38 significant"
          + " digits (39 below 3.4e38), the last at a place from 1e-128 to 1e127 (up to about"
          + " 3.4e165)", at: literal.location)
    }
  }

  /// `value` converted to `type`, or `nil`.
  static func convert(_ value: ModelValue, to type: ValueType) -> ModelValue? {
    switch (type, value) {
    case (.bool, .bool), (.string, .string), (.date, .date), (.uuid, .uuid), (.url, .url),
      (.data, .data), (.decimal, .decimal), (.double, .double), (.int, .int), (.uint, .uint):
      return value
    case (.double, .int(let number)): return .double(Double(number))
    case (.double, .uint(let number)): return .double(Double(number))
    case (.decimal, .int(let number)): return .decimal(Decimal(number))
    case (.decimal, .double(let number)): return DecimalMath.decimal(number).map { .decimal($0) }
    case (.double, .decimal(let number)): return DecimalMath.double(number).map { .double($0) }
    case (.int, .decimal(let number)): return Int64(number.description).map { .int($0) }
    case (.uint, .decimal(let number)): return UInt64(number.description).map { .uint($0) }
    case (.int, .uint(let number)): return Int64(exactly: number).map { .int($0) }
    case (.uint, .int(let number)): return UInt64(exactly: number).map { .uint($0) }
    case (.int, .double(let number)): return Int64(exactly: number).map { .int($0) }
    case (.date, .string(let text)): return DateLiteral.parse(text).map { .date($0) }
    case (.uuid, .string(let text)): return UUID(uuidString: text).map { .uuid($0) }
    case (.url, .string(let text)): return URL(string: text).map { .url($0) }
    case (.data, .string(let text)): return .data(Data(text.utf8))
    case (.array(let element), .array(let values)):
      var result: [ModelValue] = []
      for item in values {
        guard let converted = convert(item, to: element) else { return nil }
        result.append(converted)
      }
      return .array(result)
    default:
      return nil
    }
  }

  /// The type name of a value, for messages.
  static func typeName(of value: ModelValue) -> String {
    switch value {
    case .null: "nil"
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
    case .array(let values): "[\(values.first.map(typeName) ?? "Any")]"
    }
  }
}
