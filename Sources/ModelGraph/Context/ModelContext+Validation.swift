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
  ///
  /// Filled in place, the entity's name and preserved attributes looked up once per entity: a
  /// save deleting many objects built an array per entity and copied its records over.
  func deletionRecords() -> [DeletionRecord] {
    let deletions = session.pendingDeletions
    guard !deletions.isEmpty else { return [] }
    var records: [DeletionRecord] = []
    records.reserveCapacity(deletions.reduce(0) { $0 + $1.keys.count })
    let entities = session.catalog.entities
    for deletion in deletions {
      let entity = entities[deletion.entity]
      let name = entity.name
      let table = session.table(deletion.entity)
      let preserved = entity.attributes.enumerated().filter { $0.element.preservesValueOnDeletion }
      for key in deletion.keys {
        var values: [String: ModelValue] = [:]
        for (slot, attribute) in preserved {
          values[attribute.name] = table.attributeColumns[slot].value(at: Int(key.row))
        }
        records.append(
          DeletionRecord(
            identifier: PersistentIdentifier(
              entityName: name, row: key.row, generation: key.generation),
            entityName: name, preservedValues: values))
      }
    }
    return records
  }
}
