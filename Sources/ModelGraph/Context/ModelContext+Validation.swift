extension ModelContext {
  /// Checks the whole change set and throws one error listing every broken rule.
  func validate() throws {
    let changeSet = session.changeSet
    var violations = missingAttributeViolations()
    violations += uniquenessViolations(changeSet)
    violations += denyViolations()
    violations += countViolations(changeSet)
    guard violations.isEmpty else {
      throw ModelError(
        .validationFailed,
        message: "save failed: \(violations.count) rule\(violations.count == 1 ? "" : "s") broken",
        violations: violations)
    }
  }

  private func violation(_ key: ObjectKey, property: String, rule: String) -> ModelError.Violation {
    ModelError.Violation(
      entity: session.catalog.entities[Int(key.entity)].name, property: property,
      identifier: identifier(for: key), rule: rule)
  }

  private func missingAttributeViolations() -> [ModelError.Violation] {
    var violations: [ModelError.Violation] = []
    for (key, slots) in missingAttributes where session.contains(key) {
      let entity = session.catalog.entities[Int(key.entity)]
      for slot in slots.slots(below: entity.attributes.count) {
        violations.append(
          violation(
            key, property: entity.attributes[slot].name,
            rule: "a non-optional attribute was never set"))
      }
    }
    return violations
  }

  /// Unique attributes written by the change set, checked across the declaring class and its
  /// descendants, against saved objects and each other.
  private func uniquenessViolations(_ changeSet: [EntityChanges]) -> [ModelError.Violation] {
    let catalog = session.catalog
    // (declaring entity, slot) -> candidate keys
    var candidates: [Int: [Int: [ObjectKey]]] = [:]
    for change in changeSet {
      let entity = catalog.entities[change.entity]
      for (slot, attribute) in entity.attributes.enumerated() where attribute.isUnique {
        let declaring = catalog.declaringEntity(ofAttribute: slot, in: entity)
        var keys = change.insertedRows.map { row in
          ObjectKey(entity: change.entity, row: row, generation: generation(change.entity, row))
        }.filter { !(missingAttributes[$0]?.contains(slot) ?? false) }
        for (row, slots) in change.updatedRows where slots.contains(slot) {
          keys.append(
            ObjectKey(entity: change.entity, row: row, generation: generation(change.entity, row)))
        }
        if !keys.isEmpty { candidates[declaring, default: [:]][slot, default: []] += keys }
      }
    }
    var violations: [ModelError.Violation] = []
    for (declaring, slots) in candidates {
      let scope = catalog.subtree(of: declaring)
      let tables = scope.map { session.table($0) }
      for (slot, keys) in slots {
        let positions = keys.compactMap { key -> (table: Int, row: Int)? in
          guard let index = scope.firstIndex(of: Int(key.entity)), session.contains(key) else {
            return nil
          }
          return (index, Int(key.row))
        }
        let name = catalog.entities[declaring].attributes[slot].name
        for duplicate in tables[0].attributeColumns[slot].duplicates(
          slot: slot, in: tables, candidates: positions)
        {
          let entity = scope[duplicate.table]
          let key = ObjectKey(
            entity: entity, row: duplicate.row, generation: generation(entity, duplicate.row))
          violations.append(
            violation(key, property: name, rule: "value \(duplicate.value) is not unique"))
        }
      }
    }
    return violations
  }

  private func generation(_ entity: Int, _ row: Int) -> UInt32 {
    session.table(entity).generation(of: row)
  }

  /// Deleted objects whose deny relationship still points at live objects.
  private func denyViolations() -> [ModelError.Violation] {
    denyChecks.compactMap { check in
      let related = relatedKeys(of: check.key, slot: check.slot).filter { session.contains($0) }
      guard !related.isEmpty else { return nil }
      let relationship = session.catalog.entities[Int(check.key.entity)].relationships[check.slot]
      return violation(
        check.key, property: relationship.name,
        rule: "deny rule: \(related.count) related object\(related.count == 1 ? "" : "s") remain")
    }
  }

  /// To-many relationships of new or changed objects outside their count limits.
  private func countViolations(_ changeSet: [EntityChanges]) -> [ModelError.Violation] {
    var violations: [ModelError.Violation] = []
    for change in changeSet {
      let entity = session.catalog.entities[change.entity]
      let limited = entity.relationships.enumerated().filter {
        $0.element.isToMany
          && ($0.element.minimumModelCount > 0 || $0.element.maximumModelCount > 0)
      }
      guard !limited.isEmpty else { continue }
      for row in change.insertedRows + change.relationshipRows {
        let key = ObjectKey(
          entity: change.entity, row: row, generation: generation(change.entity, row))
        guard session.contains(key) else { continue }
        for (slot, relationship) in limited {
          let count = relatedKeys(of: key, slot: slot).filter { session.contains($0) }.count
          if relationship.minimumModelCount > 0 && count < relationship.minimumModelCount {
            violations.append(
              violation(
                key, property: relationship.name,
                rule:
                  "\(count) related objects, fewer than the minimum \(relationship.minimumModelCount)"
              ))
          }
          if relationship.maximumModelCount > 0 && count > relationship.maximumModelCount {
            violations.append(
              violation(
                key, property: relationship.name,
                rule:
                  "\(count) related objects, more than the maximum \(relationship.maximumModelCount)"
              ))
          }
        }
      }
    }
    return violations
  }

  /// Deletion records for the deleted objects of the change set, read before the save clears
  /// their rows.
  func deletionRecords() -> [DeletionRecord] {
    session.changeSet.flatMap { change -> [DeletionRecord] in
      let entity = session.catalog.entities[change.entity]
      let table = session.table(change.entity)
      let preserved = entity.attributes.enumerated().filter { $0.element.preservesValueOnDeletion }
      return change.deletedKeys.map { key in
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
