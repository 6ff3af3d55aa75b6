import Foundation
import ModelGraphCore

/// A value read by `.import`: CSV text, or a JSON value.
enum ImportValue: Decodable, Equatable {
  /// A CSV field, converted by the attribute's type.
  case text(String)
  /// JSON `null`, or an empty CSV field.
  case null
  /// JSON `true` or `false`.
  case bool(Bool)
  /// A JSON integer.
  case int(Int64)
  /// A JSON number with a fraction or exponent.
  case double(Double)
  /// A JSON number that is not an `Int64`, as the file writes it (what ``ImportJSONReader``
  /// reads): converted by the attribute's type, exactly for a `Decimal` or `UInt` one.
  case number(String)
  /// A JSON string.
  case string(String)
  /// A JSON array.
  case array([ImportValue])
  /// A JSON object.
  case object([String: ImportValue])

  init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    if container.decodeNil() {
      self = .null
    } else if let flag = try? container.decode(Bool.self) {
      self = .bool(flag)
    } else if let number = try? container.decode(Int64.self) {
      self = .int(number)
    } else if let number = try? container.decode(Double.self) {
      self = .double(number)
    } else if let text = try? container.decode(String.self) {
      self = .string(text)
    } else if let values = try? container.decode([ImportValue].self) {
      self = .array(values)
    } else {
      self = .object(try container.decode([String: ImportValue].self))
    }
  }

  /// The value as an attribute of `type`, or `nil` when it is not one.
  func modelValue(as type: ValueType) -> ModelValue? {
    switch self {
    case .null: return .null
    case .text(let text): return Self.parse(text, as: type)
    case .bool(let flag): return ValueCoercion.convert(.bool(flag), to: type)
    case .int(let number): return ValueCoercion.convert(.int(number), to: type)
    case .double(let number): return ValueCoercion.convert(.double(number), to: type)
    case .number(let text):
      switch type {
      case .decimal: return DecimalMath.exact(text).map { .decimal($0) }
      case .uint: if let number = UInt64(text) { return .uint(number) }
      default: break
      }
      return Double(text).flatMap { ValueCoercion.convert(.double($0), to: type) }
    case .string(let text):
      if case .decimal = type, text == "NaN" { return .decimal(.nan) }
      return ValueCoercion.convert(.string(text), to: type)
    case .array(let values):
      guard case .array(let element) = type else { return nil }
      var result: [ModelValue] = []
      for value in values {
        guard let converted = value.modelValue(as: element), !converted.isNull else { return nil }
        result.append(converted)
      }
      return .array(result)
    case .object: return nil
    }
  }

  /// CSV text as a value of `type`: numbers, `true`/`false` (also `yes`/`no`, `1`/`0`), dates
  /// as the runner writes them, arrays as JSON.
  private static func parse(_ text: String, as type: ValueType) -> ModelValue? {
    switch type {
    case .bool:
      switch text.lowercased() {
      case "true", "yes", "1": return .bool(true)
      case "false", "no", "0": return .bool(false)
      default: return nil
      }
    case .int: return Int64(text).map { .int($0) }
    case .uint: return UInt64(text).map { .uint($0) }
    case .double: return Double(text).map { .double($0) }
    // Exactly, or not at all: `Decimal(string:)` cuts digits past 38 and stops at a letter.
    // `NaN` is a `Decimal` NaN, as output writes it.
    case .decimal:
      return text == "NaN" ? .decimal(.nan) : DecimalMath.exact(text).map { .decimal($0) }
    case .array:
      guard let value = try? ImportJSONReader.value(text.utf8), case .array = value else {
        return nil
      }
      return value.modelValue(as: type)
    case .composite: return nil
    default: return ValueCoercion.convert(.string(text), to: type)
    }
  }

  /// The text of a scalar, for looking up related objects; `nil` for null, arrays and objects.
  var lookupText: String? {
    switch self {
    case .text(let text), .string(let text), .number(let text): text
    case .int(let number): String(number)
    case .double(let number): String(number)
    case .bool(let flag): String(flag)
    case .null, .array, .object: nil
    }
  }
}
