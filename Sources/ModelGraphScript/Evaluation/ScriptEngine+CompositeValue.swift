import Foundation
import ModelGraphCore

extension ScriptEngine {
  /// The value of the Codable attribute `attribute` (of type `typeName`) in an `insert` or
  /// `update`: a `{field: value, …}` literal checked against the shape of the stored values
  /// (see ``CompositeShape``) and stored as its JSON with sorted keys, `nil`, or another value
  /// of the same type.
  ///
  /// - Throws: ``ScriptError`` at the part to blame: an unknown field, a missing one that every
  ///   stored value has, a value of another kind, or a type no stored value shows.
  func compositeValue(
    _ expression: Expression, typeName: String, attribute: AttributeDescription,
    self key: ObjectKey?
  ) throws -> ModelValue {
    let location = expression.location
    switch expression.kind {
    case .literal(.null):
      return try ValueCoercion.coerce(.null, to: attribute, at: location)
    case .object, .list([]):
      break
    default:
      var binder = makeBinder(root: key.map { Int($0.entity) })
      let (bound, type) = try binder.bind(expression)
      guard type == .scalar(.composite(typeName)) else {
        throw ScriptError(
          "\(attribute.name) is a Codable value (\(typeName)): write it as {field: value, …}",
          at: location)
      }
      let value = try scalar(bound, key: key, at: location)
      return value.isNull ? try ValueCoercion.coerce(value, to: attribute, at: location) : value
    }
    let shape = compositeShape(typeName) ?? CompositeShape()
    guard shape.values > shape.nonObjects else {
      throw ScriptError(
        "no stored \(typeName) value shows its fields, so the runner cannot check a new one"
          + " (it infers a Codable type's fields from the stored values); store one from Swift"
          + " first", at: location)
    }
    let json = try jsonValue(expression, kind: .object(shape), path: typeName, key: key)
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    do {
      return .data(try encoder.encode(json))
    } catch {
      throw ScriptError("the \(typeName) value cannot be written as JSON: \(error)", at: location)
    }
  }

  /// `expression` as JSON of `kind` (`nil`: unknown, only `nil` goes); `path` names it.
  private func jsonValue(
    _ expression: Expression, kind: CompositeShape.Kind?, path: String, key: ObjectKey?
  ) throws -> ImportValue {
    let location = expression.location
    switch expression.kind {
    case .object(let fields):
      return try objectValue(fields, kind: kind, path: path, key: key, at: location)
    case .list(let elements):
      guard kind != nil else { throw unknownKind(path, at: location) }
      if elements.isEmpty, case .object? = kind {
        return try objectValue([], kind: kind, path: path, key: key, at: location)
      }
      guard kind.map({ if case .array = $0 { true } else { false } }) == true else {
        throw mismatch(path, kind, "a list", at: location)
      }
      var element: CompositeShape.Kind?
      if case .array(let known)? = kind { element = known }
      return .array(
        try elements.map {
          if case .literal(.null) = $0.kind { return .null }
          return try jsonValue($0, kind: element, path: "\(path)[]", key: key)
        })
    default:
      var binder = makeBinder(root: key.map { Int($0.entity) })
      let (bound, _) = try binder.bind(expression)
      let value = try scalar(bound, key: key, at: location)
      return try json(value, kind: kind, path: path, at: location)
    }
  }

  /// The fields of a `{…}` literal as a JSON object of `kind`.
  private func objectValue(
    _ fields: [ObjectField], kind: CompositeShape.Kind?, path: String, key: ObjectKey?,
    at location: SourceLocation
  ) throws -> ImportValue {
    guard let kind else { throw unknownKind(path, at: location) }
    guard case .object(let shape) = kind else {
      throw mismatch(path, kind, "a {…} value", at: location)
    }
    var result: [String: ImportValue] = [:]
    var given: Set<String> = []
    for field in fields {
      let fieldPath = "\(path).\(field.name)"
      guard given.insert(field.name).inserted else {
        throw ScriptError("the field '\(field.name)' is given twice", at: field.location)
      }
      guard let known = shape.fields[field.name] else {
        if shape.declared != nil {
          throw ScriptError(
            "\(path) has no field '\(field.name)' (the Swift type declares: \(shape.fieldList))",
            at: field.location)
        }
        throw ScriptError(
          "\(path) has no field '\(field.name)' (the \(shape.values) stored values have:"
            + " \(shape.fieldList))", at: field.location)
      }
      if case .literal(.null) = field.value.kind {
        guard shape.isOptional(known) else {
          throw ScriptError(
            shape.declared != nil
              ? "\(fieldPath) is not optional in the Swift type; it cannot be nil"
              : "\(fieldPath) has a value in every stored value; it cannot be nil",
            at: field.value.location)
        }
        // Left out, as Swift's JSONEncoder leaves out a nil optional.
        continue
      }
      guard known.conflicts.isEmpty else {
        let kinds = ([known.kind?.name ?? "nil"] + known.conflicts).joined(separator: ", ")
        throw ScriptError(
          "\(fieldPath) holds different kinds in the stored values (\(kinds)); the runner"
            + " cannot check a new one", at: field.value.location)
      }
      result[field.name] = try jsonValue(field.value, kind: known.kind, path: fieldPath, key: key)
    }
    let missing = shape.fields.keys.sorted().filter {
      !given.contains($0) && !shape.isOptional(shape.fields[$0]!)
    }
    if !missing.isEmpty {
      throw ScriptError(
        "\(path) needs the field\(missing.count == 1 ? "" : "s") \(missing.joined(separator: ", "))"
          + (shape.declared != nil
            ? " (the Swift type requires \(missing.count == 1 ? "it" : "them"))"
            : " (every stored value has \(missing.count == 1 ? "it" : "them"))"),
        at: location)
    }
    return .object(result)
  }

  /// A scalar value computed by the evaluator.
  private func scalar(_ bound: Bound, key: ObjectKey?, at location: SourceLocation) throws
    -> ModelValue
  {
    let bindings: [Int: RunValue] = key.map { [0: .object($0)] } ?? [:]
    do {
      guard case .value(let value) = try evaluator.evaluate(bound, bindings) else {
        throw ScriptError("a Codable value's field takes a value, not objects", at: location)
      }
      return value
    } catch let error as EvaluationError {
      throw ScriptError(error.message, at: location)
    }
  }

  /// A number for a field the Swift type declares as `type` (`Int`, `UInt`, `Double` or
  /// `Decimal`), as JSON that type decodes: a `Decimal` with every digit, an integer only when
  /// it is whole and in range.
  private func declaredNumber(
    _ value: ModelValue, _ type: ValueType, kind: CompositeShape.Kind, path: String,
    at location: SourceLocation
  ) throws -> ImportValue {
    guard Binder.type(of: value).isNumeric else {
      throw mismatch(path, kind, ValueCoercion.typeName(of: value), at: location)
    }
    switch ValueCoercion.convert(value, to: type) {
    case .int(let number)?: return .int(number)
    case .uint(let number)?: return Int64(exactly: number).map { .int($0) } ?? .number("\(number)")
    case .double(let number)?: return .double(number)
    case .decimal(let number)? where !number.isNaN: return .number(number.description)
    default:
      throw ScriptError(
        "\(path) is \(type) in the Swift type; \(value) does not fit it", at: location)
    }
  }

  /// Whether Swift's `JSONDecoder` reads `text` as a value of `type` (a UUID's, URL's or
  /// Data's string).
  private static func decodes(_ text: String, as type: ValueType) -> Bool {
    switch type {
    case .uuid: UUID(uuidString: text) != nil
    case .url: URL(string: text) != nil
    case .data: Data(base64Encoded: text) != nil
    default: true
    }
  }

  /// A computed value as JSON of `kind`.
  private func json(
    _ value: ModelValue, kind: CompositeShape.Kind?, path: String, at location: SourceLocation
  ) throws -> ImportValue {
    if value.isNull { return .null }
    guard let kind else { throw unknownKind(path, at: location) }
    if case .number(_, let declared?) = kind {
      return try declaredNumber(value, declared, kind: kind, path: path, at: location)
    }
    if case .string(let declared?) = kind, case .string(let text) = value,
      !Self.decodes(text, as: declared)
    {
      throw ScriptError(
        "\(path) is \(declared) in the Swift type; \(ScriptLiteral.quote(text)) does not fit it",
        at: location)
    }
    let converted: ImportValue
    switch value {
    case .null: converted = .null
    case .bool(let flag): converted = .bool(flag)
    case .int(let number): converted = .int(number)
    case .uint(let number):
      guard let number = Int64(exactly: number) else {
        throw ScriptError("\(number) does not fit a JSON integer", at: location)
      }
      converted = .int(number)
    case .double(let number): converted = .double(number)
    case .decimal(let number): converted = .number(number.description)
    case .string(let text): converted = .string(text)
    case .uuid(let uuid): converted = .string(uuid.uuidString)
    case .array(let values):
      guard case .array(let element) = kind else {
        throw mismatch(path, kind, ValueCoercion.typeName(of: value), at: location)
      }
      return .array(try values.map { try json($0, kind: element, path: "\(path)[]", at: location) })
    case .date:
      throw ScriptError(
        "a date cannot go into a Codable value from the runner: Swift's JSONEncoder writes a"
          + " Date as seconds since 2001-01-01 by default; write that number", at: location)
    case .url, .data:
      throw ScriptError(
        "a \(ValueCoercion.typeName(of: value)) value cannot go into a Codable value's field;"
          + " write it as a string", at: location)
    }
    guard let actual = CompositeShape.Kind(converted) else { return converted }
    guard actual.merged(with: kind) != nil else {
      throw mismatch(path, kind, ValueCoercion.typeName(of: value), at: location)
    }
    if case .number(whole: true, _) = kind, case .double(let number) = converted,
      number.rounded() != number
    {
      warningHandler?(
        "every stored \(path) is a whole number; \(number) will not decode if the Swift field"
          + " is an Int", location)
    }
    return converted
  }

  /// For a part whose stored values are all `nil` (or empty lists): a Swift type the runner
  /// cannot see might not decode what it would write.
  private func unknownKind(_ path: String, at location: SourceLocation) -> ScriptError {
    ScriptError(
      "\(path) is nil or an empty list in every stored value, so its type is unknown and the"
        + " runner cannot check this value; store one from Swift first", at: location)
  }

  private func mismatch(
    _ path: String, _ kind: CompositeShape.Kind?, _ given: String, at location: SourceLocation
  ) -> ScriptError {
    ScriptError(
      "type mismatch: \(path) is \(kind?.name ?? "unknown") in the stored values, not \(given)",
      at: location)
  }
}
