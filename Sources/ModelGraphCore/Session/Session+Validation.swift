extension Session {
  /// Checks the whole change set against the schema's rules, before anything is published.
  ///
  /// The rules: non-optional attributes of new objects set, unique attributes and unique
  /// constraints unique across the declaring class and its descendants (against saved objects
  /// and within the change set), deny rules of deleted objects, the count limits of to-many
  /// relationships and required to-one relationships (not optional, or a minimum count of 1)
  /// of new or changed objects, and the integers and `Float`s of new or changed objects within
  /// their attributes' declared types (``AttributeDescription/integerWidth``,
  /// ``AttributeDescription/isFloat32``). Validate after ``rebaseOntoLatest(resolving:)`` and
  /// publish only when this returns nothing.
  /// - Returns: Every violation found; empty when the change set may be published.
  /// - Complexity: O(changes), plus O(rows of a hierarchy) per unique rule the changes touch.
  public func validate() -> [ConstraintViolation] {
    let changeSet = changeSet
    let violations =
      missingValueViolations() + uniquenessViolations(changeSet) + denyViolations()
      + countViolations(changeSet) + widthViolations(changeSet)
    // A violation may name values of a version committed by another save and not shown yet
    // (the session rebased onto it to save): wait until that save is durable.
    if !violations.isEmpty { store.waitUntilShown(base.number) }
    return violations
  }

  func violation(
    _ key: ObjectKey, property: String, rule: ConstraintViolation.Rule, detail: String
  ) -> ConstraintViolation {
    ConstraintViolation(
      key: key, entity: catalog.entities[Int(key.entity)].name, property: property, rule: rule,
      detail: detail)
  }

  func key(_ entity: Int, _ row: Int) -> ObjectKey {
    ObjectKey(entity: entity, row: row, generation: table(entity).generation(of: row))
  }

  private func missingValueViolations() -> [ConstraintViolation] {
    var violations: [ConstraintViolation] = []
    for (key, slots) in unsetAttributes where contains(key) {
      let entity = catalog.entities[Int(key.entity)]
      for slot in slots.slots(below: entity.attributes.count) {
        violations.append(
          violation(
            key, property: entity.attributes[slot].name, rule: .missingValue,
            detail: "a non-optional attribute was never set"))
      }
    }
    return violations.sorted { ($0.key.entity, $0.key.row) < ($1.key.entity, $1.key.row) }
  }

  /// Deleted objects whose deny relationship still points at live objects.
  private func denyViolations() -> [ConstraintViolation] {
    denyChecks.compactMap { check in
      let related = relatedKeys(of: check.key, slot: check.slot).filter { contains($0) }
      guard !related.isEmpty else { return nil }
      let relationship = catalog.entities[Int(check.key.entity)].relationships[check.slot]
      return violation(
        check.key, property: relationship.name, rule: .deny,
        detail: related.count == 1
          ? "deny rule: 1 related object remains"
          : "deny rule: \(related.count) related objects remain")
    }
  }

  /// Relationships of new or changed objects outside their limits: a to-many's
  /// minimum and maximum, a to-one that is required (not optional, or a minimum of 1) and
  /// holds no live object.
  private func countViolations(_ changeSet: [EntityChanges]) -> [ConstraintViolation] {
    var violations: [ConstraintViolation] = []
    for change in changeSet {
      let entity = catalog.entities[change.entity]
      let limited = entity.relationships.enumerated().compactMap {
        slot, relationship -> (slot: Int, relationship: RelationshipDescription, minimum: Int)? in
        let minimum =
          relationship.isToMany
          ? relationship.minimumModelCount
          : max(min(relationship.minimumModelCount, 1), relationship.isOptional ? 0 : 1)
        let maximum = relationship.isToMany ? relationship.maximumModelCount : 0
        return minimum > 0 || maximum > 0 ? (slot, relationship, minimum) : nil
      }
      guard !limited.isEmpty else { continue }
      for row in change.insertedRows + change.relationshipRows {
        let key = key(change.entity, row)
        guard contains(key) else { continue }
        for (slot, relationship, minimum) in limited {
          let count = relatedKeys(of: key, slot: slot).filter { contains($0) }.count
          let maximum = relationship.maximumModelCount
          if count < minimum {
            violations.append(
              relationship.isToMany
                ? violation(
                  key, property: relationship.name, rule: .count,
                  detail: "\(count) related objects, fewer than the minimum \(minimum)")
                : violation(
                  key, property: relationship.name, rule: .required,
                  detail: "a required to-one relationship holds no object"))
          }
          if relationship.isToMany && maximum > 0 && count > maximum {
            violations.append(
              violation(
                key, property: relationship.name, rule: .count,
                detail: "\(count) related objects, more than the maximum \(maximum)"))
          }
        }
      }
    }
    return violations
  }
}
