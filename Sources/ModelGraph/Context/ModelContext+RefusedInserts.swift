import ModelGraphCore

/// An object whose insert the context refused: its class, which the container was not given,
/// cannot be registered.
struct RefusedInsert {
  /// The object, kept outside the context with its values.
  let object: ModelObject
  /// Why its class cannot be registered.
  let error: any Error
}

extension ModelContext {
  /// Records that `model` cannot be inserted, once per object.
  func refuseInsert(of model: ModelObject, because error: any Error) {
    guard !refusedInserts.contains(where: { $0.object === model }) else { return }
    refusedInserts.append(RefusedInsert(object: model, error: error))
  }

  /// Forgets the refused insert of `model`, if there is one.
  func withdrawRefusedInsert(of model: ModelObject) {
    refusedInserts.removeAll { $0.object === model }
  }

  /// Throws the error of every refused insert: a save would lose them.
  func checkRefusedInserts() throws {
    try throwRefusal(refusedInserts)
  }

  /// Throws the error of the refused inserts whose objects are `T`s: a fetch of `T` that
  /// includes pending changes would leave them out.
  func checkRefusedInserts<T>(of type: T.Type) throws {
    guard !refusedInserts.isEmpty else { return }
    try throwRefusal(refusedInserts.filter { $0.object is T })
  }

  private func throwRefusal(_ refused: [RefusedInsert]) throws {
    guard let first = refused.first else { return }
    var violations: [ModelError.Violation] = []
    var classes: [String] = []
    for insert in refused {
      let name = String(describing: Swift.type(of: insert.object))
      guard !classes.contains(name) else { continue }
      classes.append(name)
      let schema = insert.error as? SchemaError
      violations.append(
        ModelError.Violation(
          entity: schema?.entity ?? name, property: schema?.property ?? "",
          identifier: nil, rule: schema?.message ?? "\(insert.error)"))
    }
    let count = refused.count
    throw ModelError(
      .schema,
      message: "\(count) inserted \(count == 1 ? "object was" : "objects were") refused: "
        + "\(classes.joined(separator: ", ")) cannot be stored (a class the container was not "
        + "given registers itself when first used, and this one failed); fix the class or list "
        + "it in the container to see the error when it is made, and delete the "
        + "\(count == 1 ? "object" : "objects") or roll back",
      violations: violations, schemaError: first.error as? SchemaError)
  }
}
