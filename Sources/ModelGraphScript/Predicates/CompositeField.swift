import Foundation
import ModelGraphCore

/// Fields of Codable (composite) values, which the engine stores as their JSON: a field's
/// value read from the JSON (`nil` where a value lacks the field), its type the Swift type the
/// file's schema records, or read from the shape of the stored values (a file that records
/// only the type's name). A number reads as its declared `Int`, `UInt` or `Decimal` type
/// exactly, else as `Double`; a nested value stays JSON.
enum CompositeField {
  /// The value of field `name` in the JSON of `value` as a value of `type` (`nil` when absent
  /// or not JSON).
  static func value(of name: String, in value: ModelValue, as type: ValueType) -> ModelValue {
    // The runner's reader keeps each number's text, so no digit is lost before `type` reads it.
    guard case .data(let data) = value,
      case .object(let fields)? = try? ImportJSONReader.value(data),
      let field = fields[name]
    else { return .null }
    return modelValue(field, as: type)
  }

  /// A JSON value as the runner compares it, numbers as `type` (or its elements' type).
  static func modelValue(_ value: ImportValue, as type: ValueType) -> ModelValue {
    switch value {
    case .null, .text: return .null
    case .bool(let flag): return .bool(flag)
    case .int, .double, .number:
      // As an attribute of `type` reads it (exactly, for `Int`, `UInt` and `Decimal`), else
      // the nearest `Double`.
      return value.modelValue(as: type) ?? value.modelValue(as: .double) ?? .double(.infinity)
    case .string(let text): return .string(text)
    case .array(let values):
      let element: ValueType = if case .array(let element) = type { element } else { .double }
      return .array(values.map { modelValue($0, as: element) })
    case .object: return (try? JSONEncoder().encode(value)).map { .data($0) } ?? .null
    }
  }
}

extension Binder {
  /// The type of field `name` of the Codable type (or field path) `typeName`, from the shape
  /// of the stored values (see ``CompositeShape``).
  ///
  /// - Throws: ``ScriptError`` at `location` when no stored value has the field, or its
  ///   values disagree in kind or are all `nil`.
  func fieldType(_ name: String, of typeName: String, at location: SourceLocation) throws
    -> StaticType
  {
    let prefix = "cannot read the field '\(name)' of \(typeName): "
    guard let shape = compositeShape?(typeName), shape.values > 0 else {
      throw ScriptError(
        prefix + "no \(typeName) value is stored (the runner reads a Codable value's fields"
          + " from the stored JSON)", at: location)
    }
    guard let field = shape.fields[name] else {
      if shape.declared != nil {
        throw ScriptError(
          prefix + "the Swift type declares no such field (its fields: \(shape.fieldList))",
          at: location)
      }
      let known = shape.fields.isEmpty ? "none has fields" : "their fields: \(shape.fieldList)"
      throw ScriptError(
        prefix + "none of the \(shape.values) stored \(typeName) values has it (\(known))",
        at: location)
    }
    guard field.conflicts.isEmpty, let kind = field.kind else {
      let kinds = ([field.kind?.name ?? "nil"] + field.conflicts).joined(separator: ", ")
      throw ScriptError(
        prefix
          + (field.kind == nil
            ? "it is nil in every stored value, so its type is unknown"
            : "its stored values hold different kinds (\(kinds))"),
        at: location)
    }
    guard let type = kind.valueType(path: "\(typeName).\(name)") else {
      throw ScriptError(
        prefix + "it is an empty list in every stored value, so its elements' type is unknown",
        at: location)
    }
    return .scalar(type)
  }
}

extension ImportValue: Encodable {
  func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    switch self {
    case .null: try container.encodeNil()
    case .text(let text), .string(let text): try container.encode(text)
    case .bool(let flag): try container.encode(flag)
    case .int(let number): try container.encode(number)
    case .double(let number): try container.encode(number)
    case .number(let text):
      // Every digit where a `Double` would lose some (a `Decimal` field's value).
      if case .decimal(let exact) = DecimalMath.number(text) {
        try container.encode(exact)
      } else {
        try container.encode(Double(text) ?? .infinity)
      }
    case .array(let values): try container.encode(values)
    case .object(let fields): try container.encode(fields)
    }
  }
}
