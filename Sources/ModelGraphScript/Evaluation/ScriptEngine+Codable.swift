import ModelGraphCore

extension ScriptEngine {
  /// `codable Name {…}`: records the shape of the Codable type `name` in the store's schema, so
  /// `entity` members can be declared `field: Name` and their values written as `{field: value}`.
  ///
  /// - Throws: ``ScriptError`` when the store already records another shape for `name`, or the
  ///   shape is not a keyed one.
  func declareCodable(_ name: String, _ shape: CodableShape, at location: SourceLocation) throws {
    guard case .object = shape else {
      throw ScriptError(
        "a Codable type's shape is {field: Type, …}; \(name) is \(shape)", at: location)
    }
    if let known = catalog.codableShapes[name], known != shape {
      throw ScriptError(
        "the store records another shape for \(name): \(known)", at: location)
    }
    guard ScriptSchema.valueType(name) == nil, catalog.entity(named: name) == nil else {
      throw ScriptError("\(name) names a value type or a class, not a Codable type", at: location)
    }
    store.record(codableShapes: [name: shape])
  }
}
