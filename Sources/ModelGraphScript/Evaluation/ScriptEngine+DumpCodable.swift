import Foundation
import ModelGraphCore

extension ScriptEngine {
  /// The `codable` statements declaring the Codable types the store's attributes hold, from the
  /// shapes its schema records.
  ///
  /// - Throws: ``ScriptError`` for a type whose shape the schema does not record (a file written
  ///   before format 5), shows only in part, or whose name no script can write.
  func codableDeclarations(at location: SourceLocation) throws -> String {
    var names: [String] = []
    for entity in catalog.entities {
      for attribute in entity.description.attributes {
        guard case .composite(let name) = attribute.valueType else { continue }
        let blame = ".dump cannot write \(entity.name).\(attribute.name) (\(name))"
        guard Self.isPlainName(name) else {
          throw ScriptError(
            blame + ": a script cannot name the Codable type \(name)", at: location)
        }
        guard let shape = catalog.codableShapes[name] else {
          throw ScriptError(
            blame + ": the file's schema records no shape for \(name) (it was written before"
              + " format 5); open it once with the Swift app, which records it", at: location)
        }
        guard Self.shapeText(shape) != nil else {
          throw ScriptError(
            blame + ": the shape of \(name) has a part its declaration does not show (\(shape))",
            at: location)
        }
        if !names.contains(name) { names.append(name) }
      }
    }
    return names.sorted().map { "codable \($0) \(Self.shapeText(catalog.codableShapes[$0]!)!)\n" }
      .joined()
  }

  /// A Codable value's stored JSON as a `{field: value, …}` literal, or `nil` when it is not
  /// JSON or holds a value no literal holds.
  static func compositeLiteral(_ value: ModelValue) -> String? {
    switch value {
    case .null: return "nil"
    case .data(let data):
      // The runner's reader keeps each number's text: a `Decimal` field's every digit.
      guard let json = try? ImportJSONReader.value(data) else { return nil }
      return literal(json)
    default: return nil
    }
  }

  private static func literal(_ value: ImportValue) -> String? {
    switch value {
    case .null: return "nil"
    case .bool(let flag): return flag ? "true" : "false"
    case .int(let number): return String(number)
    case .double(let number): return ScriptLiteral.text(.double(number))
    case .number(let text): return text
    case .string(let text), .text(let text): return ScriptLiteral.text(.string(text))
    case .array(let elements):
      var parts: [String] = []
      for element in elements {
        guard let part = literal(element) else { return nil }
        parts.append(part)
      }
      return "[" + parts.joined(separator: ", ") + "]"
    case .object(let fields):
      var parts: [String] = []
      for (name, field) in fields.sorted(by: { $0.key < $1.key }) {
        guard let part = literal(field) else { return nil }
        parts.append("\(fieldName(name)): \(part)")
      }
      return "{" + parts.joined(separator: ", ") + "}"
    }
  }

  /// A shape as a `codable` statement declares it, or `nil` when part of it is unknown.
  private static func shapeText(_ shape: CodableShape) -> String? {
    switch shape {
    case .value(let type): return type.description
    case .array(let element): return shapeText(element).map { "[\($0)]" }
    case .unknown: return nil
    case .object(let fields):
      var parts: [String] = []
      for field in fields {
        guard let text = shapeText(field.shape) else { return nil }
        parts.append("\(fieldName(field.name)): \(text)\(field.isOptional ? "?" : "")")
      }
      return "{" + parts.joined(separator: ", ") + "}"
    }
  }

  /// `name` bare when it is a plain name, else quoted.
  private static func fieldName(_ name: String) -> String {
    isPlainName(name) ? name : ScriptLiteral.text(.string(name))!
  }

  private static func isPlainName(_ name: String) -> Bool {
    guard let first = name.unicodeScalars.first,
      first == "_" || CharacterSet.letters.contains(first)
    else { return false }
    return name.unicodeScalars.allSatisfy {
      $0 == "_" || CharacterSet.alphanumerics.contains($0)
    } && name.allSatisfy(\.isASCII)
  }
}
