extension Session {
  /// A unique rule the change set touched: a unique attribute (one slot) or a unique
  /// constraint, with the new or changed objects to check.
  private struct UniqueCheck {
    var declaring: Int
    var slots: [Int]
    var candidates: [ObjectKey] = []
  }

  /// Unique attributes and unique constraints written by the change set, checked across the
  /// declaring class and its descendants, against saved objects and each other.
  ///
  /// The rules touched are gathered in a short list (an entity has few), in the order of
  /// their declaring entity and slots, so a small save allocates nothing per rule it skips.
  func uniquenessViolations(_ changeSet: [EntityChanges]) -> [ConstraintViolation] {
    var checks: [UniqueCheck] = []
    for change in changeSet {
      let rules = catalog.entities[change.entity].uniqueRules
      if rules.isEmpty { continue }
      for rule in rules {
        var keys: [ObjectKey] = []
        for row in change.insertedRows {
          let key = key(change.entity, row)
          // A new object whose attribute of the rule was never set is reported as missing.
          if unsetAttributes.isEmpty
            || !rule.slots.contains(where: unsetAttributes(of: key).contains)
          {
            keys.append(key)
          }
        }
        for (row, slots) in change.updatedRows where rule.slots.contains(where: slots.contains) {
          keys.append(key(change.entity, row))
        }
        if keys.isEmpty { continue }
        if let index = checks.firstIndex(where: {
          $0.declaring == rule.declaringEntity && $0.slots == rule.slots
        }) {
          checks[index].candidates += keys
        } else {
          checks.append(
            UniqueCheck(declaring: rule.declaringEntity, slots: rule.slots, candidates: keys))
        }
      }
    }
    if checks.count > 1 {
      checks.sort { x, y in
        x.declaring != y.declaring
          ? x.declaring < y.declaring : x.slots.lexicographicallyPrecedes(y.slots)
      }
    }
    var violations: [ConstraintViolation] = []
    for check in checks { violations += self.violations(of: check) }
    return violations
  }

  private func violations(of check: UniqueCheck) -> [ConstraintViolation] {
    let scope = catalog.subtree(of: check.declaring)
    let positions = check.candidates.compactMap { key -> (table: Int, row: Int)? in
      guard let index = scope.firstIndex(of: Int(key.entity)), contains(key) else { return nil }
      return (index, Int(key.row))
    }
    let duplicates: [(table: Int, row: Int, value: String)]
    if check.slots.count == 1 {
      let slot = check.slots[0]
      let found =
        indexedDuplicates(slot: slot, scope: scope, candidates: positions)
        ?? table(scope[0]).attributeColumns[slot].duplicates(
          slot: slot, in: scope.map { table($0) }, candidates: positions)
      duplicates = found.map { ($0.table, $0.row, "\($0.value)") }
    } else {
      duplicates =
        indexedCompoundDuplicates(slots: check.slots, scope: scope, candidates: positions)
        ?? Table.compoundDuplicates(
          slots: check.slots, in: scope.map { table($0) }, candidates: positions)
    }
    guard !duplicates.isEmpty else { return [] }
    let attributes = catalog.entities[check.declaring].attributes
    let property = check.slots.map { attributes[$0].name }.joined(separator: "+")
    return duplicates.map { duplicate in
      violation(
        key(scope[duplicate.table], duplicate.row), property: property, rule: .notUnique,
        detail: "value \(duplicate.value) is not unique")
    }
  }
}

extension Session {
  /// The unique rules of `entity`: one per unique attribute (declared by the class that
  /// declares the attribute) and its unique constraints, inherited ones included.
  public func uniqueRules(of entity: ResolvedEntity) -> [UniqueConstraint] {
    entity.uniqueRules
  }

  /// For each of the live objects `candidates`, another live object in the scope of `rule`
  /// (outside `excluded`) holding the same non-`nil` values in the rule's attributes.
  ///
  /// - Returns: Per candidate (same order), the matching object, or `nil`.
  /// - Complexity: O(changes + candidates) for a unique attribute or constraint of indexable
  ///   types, through their hash indexes (plus the rows sharing a constraint's rarest value);
  ///   O(rows of the rule's scope × its attributes + candidates) otherwise.
  public func uniqueMatches(
    for rule: UniqueConstraint, candidates: [ObjectKey], excluded: Set<ObjectKey>
  ) -> [ObjectKey?] {
    let scope = catalog.subtree(of: rule.declaringEntity)
    let tables = scope.map { table($0) }
    let positions = candidates.map { key in
      (table: scope.firstIndex(of: Int(key.entity))!, row: Int(key.row))
    }
    if rule.slots.count == 1 {
      let slot = rule.slots[0]
      let found =
        indexedMatches(slot: slot, scope: scope, candidates: positions, excluded: excluded)
        ?? tables[0].attributeColumns[slot].matches(
          slot: slot, in: tables, candidates: positions, excluded: excluded)
      return found.map { match in match.map { key(scope[$0.table], $0.row) } }
    }
    if let found = indexedCompoundMatches(
      slots: rule.slots, scope: scope, candidates: positions, excluded: excluded)
    {
      return found.map { match in match.map { key(scope[$0.table], $0.row) } }
    }
    func values(_ table: Table, _ row: Int) -> [ModelValue]? {
      table.compoundValue(slots: rule.slots, row: row)
    }
    var wanted: [[ModelValue]: ObjectKey?] = [:]
    for position in positions {
      if let tuple = values(tables[position.table], position.row) { wanted[tuple] = .some(nil) }
    }
    if !wanted.isEmpty {
      for (index, table) in tables.enumerated() {
        table.forEachLiveRow { row in
          guard let tuple = values(table, row), case .some(.none) = wanted[tuple] else { return }
          let found = key(scope[index], row)
          if !excluded.contains(found) { wanted[tuple] = found }
        }
      }
    }
    return positions.map { position in
      values(tables[position.table], position.row).flatMap { wanted[$0] ?? nil }
    }
  }
}
