import Foundation
import ModelGraphCore

/// Fields of Codable (composite) values, which the engine stores as their JSON: a field's
/// value read from the JSON, and its type read from a stored value (the file's schema records
/// only the type's name). Numbers read as `Double`; a nested value stays JSON.
enum CompositeField {
  /// The value of field `name` in the JSON of `value` (`nil` when absent or not JSON).
  static func value(of name: String, in value: ModelValue) -> ModelValue {
    guard case .data(let data) = value,
      case .object(let fields)? = try? JSONDecoder().decode(ImportValue.self, from: data),
      let field = fields[name]
    else { return .null }
    return modelValue(field)
  }

  /// A JSON value as the runner compares it.
  static func modelValue(_ value: ImportValue) -> ModelValue {
    switch value {
    case .null, .text: return .null
    case .bool(let flag): return .bool(flag)
    case .int(let number): return .double(Double(number))
    case .double(let number): return .double(number)
    case .string(let text): return .string(text)
    case .array(let values): return .array(values.map(modelValue))
    case .object: return (try? JSONEncoder().encode(value)).map { .data($0) } ?? .null
    }
  }

  /// The type of a JSON value as a field's static type; `typeName` names a nested value.
  static func type(of value: ImportValue, typeName: String) -> ValueType? {
    switch value {
    case .bool: return .bool
    case .int, .double: return .double
    case .string: return .string
    case .object: return .composite(typeName)
    case .array(let values):
      guard let first = values.first, let element = type(of: first, typeName: typeName) else {
        return nil
      }
      return .array(element)
    case .null, .text: return nil
    }
  }
}

extension Binder {
  /// The type of field `name` of the Codable type (or field path) `typeName`, read from a
  /// stored value.
  ///
  /// - Throws: ``ScriptError`` at `location` when no stored value has the field.
  func fieldType(_ name: String, of typeName: String, at location: SourceLocation) throws
    -> StaticType
  {
    guard let field = sampleField?(typeName, name),
      let type = CompositeField.type(of: field, typeName: "\(typeName).\(name)")
    else {
      throw ScriptError(
        "cannot read the field '\(name)' of \(typeName): no stored \(typeName) value has it"
          + " (the runner reads a Codable value's fields from its stored JSON)", at: location)
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
    case .array(let values): try container.encode(values)
    case .object(let fields): try container.encode(fields)
    }
  }
}
