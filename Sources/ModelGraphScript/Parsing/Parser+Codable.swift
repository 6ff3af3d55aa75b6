import ModelGraphCore

extension Parser {
  /// A Codable shape: `{field: Shape, other: Shape?, …}`, `[Shape]` or a value type name.
  mutating func parseCodableShape(depth: Int = 0) throws -> CodableShape {
    guard depth < 16 else {
      throw ScriptError("a Codable shape nests deeper than 16", at: current.location)
    }
    if accept(symbol: "[") {
      let element = try parseCodableShape(depth: depth + 1)
      try expect(symbol: "]", "to close the list shape")
      return .array(element)
    }
    if accept(symbol: "{") {
      var fields: [CodableShape.Field] = []
      skipNewlines()
      while !accept(symbol: "}") {
        let name: String
        let location = current.location
        if case .literal(.string(let text)) = current.kind {
          name = text
          position += 1
        } else {
          (name, _) = try expectIdentifier("a field name (name: Type)")
        }
        guard !fields.contains(where: { $0.name == name }) else {
          throw ScriptError("the field '\(name)' is declared twice", at: location)
        }
        try expect(symbol: ":", "after the field name '\(name)'")
        let shape = try parseCodableShape(depth: depth + 1)
        let isOptional = accept(symbol: "?")
        fields.append(CodableShape.Field(name: name, shape: shape, isOptional: isOptional))
        skipNewlines()
        guard accept(symbol: ",") || current.isSymbol("}") else {
          throw ScriptError(
            "expected ',' or '}' after the field '\(name)', found \(current.display)",
            at: current.location)
        }
        skipNewlines()
      }
      return .object(fields)
    }
    let (name, location) = try expectIdentifier("a field type")
    guard let type = ScriptSchema.valueType(name) else {
      throw ScriptError(
        "unknown field type '\(name)': a value type (Bool, Int, UInt, Double, String, Date, UUID,"
          + " URL, Data, Decimal), {fields} or [element]", at: location)
    }
    return .value(type)
  }
}
