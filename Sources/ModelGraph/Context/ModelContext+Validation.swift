import ModelGraphCore

extension ModelContext {
  /// Checks the whole change set and throws one error listing every broken rule.
  func validate() throws {
    let violations = session.validate().map { violation in
      ModelError.Violation(
        entity: violation.entity, property: violation.property,
        identifier: identifier(for: violation.key), rule: violation.detail)
    }
    guard violations.isEmpty else {
      throw ModelError(
        .validationFailed,
        message: "save failed: \(violations.count) rule\(violations.count == 1 ? "" : "s") broken",
        violations: violations)
    }
  }

  /// Deletion records for the deleted objects of the change set, read before the save clears
  /// their rows.
  func deletionRecords() -> [DeletionRecord] {
    session.pendingDeletions.flatMap { deletion -> [DeletionRecord] in
      let entity = session.catalog.entities[deletion.entity]
      let table = session.table(deletion.entity)
      let preserved = entity.attributes.enumerated().filter { $0.element.preservesValueOnDeletion }
      return deletion.keys.map { key in
        var values: [String: ModelValue] = [:]
        for (slot, attribute) in preserved {
          values[attribute.name] = table.attributeColumns[slot].value(at: Int(key.row))
        }
        return DeletionRecord(
          identifier: identifier(for: key), entityName: entity.name, preservedValues: values)
      }
    }
  }
}
