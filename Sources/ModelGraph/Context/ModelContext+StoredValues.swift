import ModelGraphCore

extension ModelContext {
  /// Checks that every attribute value the context sees is a value of the type its property
  /// declares now, and throws one error listing those that are not.
  ///
  /// A store written by another version of the app can hold values the declared types no
  /// longer have: a raw value whose enum case was removed, a `Codable` value whose type lost or
  /// renamed a field. Automatic migration cannot see these (the stored kind is unchanged; an
  /// integer too wide for a narrower integer type declared now is different: the container
  /// refuses to open the store, naming it), and reading such an attribute
  /// stops the process with the class, property, object and value named, since a property read
  /// cannot throw. Call this after opening a store an older version wrote, to find them
  /// without stopping, then rewrite them in a custom migration stage or through this context.
  ///
  /// > Important: Reading an attribute whose stored value is no value of its type stops the
  /// > process. Nothing is read wrongly: no value is ever replaced by a default.
  ///
  /// - Throws: ``ModelError`` with code ``ModelError/Code/storedValueMismatch``; each violation
  ///   names the class, the property, the object and the stored value (the first 100 found).
  /// - Complexity: O(objects × attributes) over the classes registered in the container;
  ///   every `Codable` value is decoded.
  public func validateStoredValues() throws {
    var violations: [ModelError.Violation] = []
    var count = 0
    for entity in session.catalog.entities {
      guard let modelClass = modelClassIfAny(forEntity: entity.index) else { continue }
      let fields = ModelClassInfo.info(for: modelClass).attributeWrappers
      let table = session.table(entity.index)
      table.forEachLiveRow { row in
        for (slot, field) in fields.enumerated() {
          guard let problem = storedValueProblem(field.valueType, table, slot: slot, row: row)
          else { continue }
          count += 1
          guard violations.count < 100 else { continue }
          let key = ObjectKey(entity: entity.index, row: row, generation: table.generation(of: row))
          violations.append(
            ModelError.Violation(
              entity: entity.name, property: field.name, identifier: identifier(for: key),
              rule: problem))
        }
      }
    }
    guard count > 0 else { return }
    throw ModelError(
      .storedValueMismatch,
      message: "\(count) stored value\(count == 1 ? " is" : "s are") no value of the declared "
        + "type (written by another version of the type)",
      violations: violations)
  }
}

/// Why attribute `slot` of `row` is no value of `type`, or `nil` when it is one.
private func storedValueProblem<Storage: PersistentValue>(
  _: Storage.Type, _ table: Table, slot: Int, row: Int
) -> String? {
  let stored = table.value(slot, row: row, as: Storage.Stored.self)
  guard Storage._fromStoredIfValid(stored) == nil else { return nil }
  return Storage._storedValueProblem(stored)
}
