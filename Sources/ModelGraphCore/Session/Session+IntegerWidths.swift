extension Session {
  /// Values of new or changed objects outside their attributes' declared integer types
  /// (``AttributeDescription/integerWidth``) or no `Float` values in a `Float` attribute
  /// (``AttributeDescription/isFloat32``): the runner or the core may write any 64-bit
  /// value, and a process that declares the narrower type must be able to read it back.
  ///
  /// - Complexity: O(changed rows × narrow attributes of their entities).
  func widthViolations(_ changeSet: [EntityChanges]) -> [ConstraintViolation] {
    var violations: [ConstraintViolation] = []
    for change in changeSet {
      let entity = catalog.entities[change.entity]
      let slots = entity.narrowSlots
      guard !slots.isEmpty else { continue }
      let columns = table(change.entity).attributeColumns
      func check(_ row: Int, _ slot: Int) {
        guard contains(key(change.entity, row)) else { return }
        let attribute = entity.attributes[slot]
        guard let problem = attribute.widthProblem(columns[slot].value(at: row)) else {
          return
        }
        violations.append(
          violation(
            key(change.entity, row), property: attribute.name, rule: .outOfRange,
            detail: problem))
      }
      for row in change.insertedRows {
        for slot in slots { check(row, slot) }
      }
      for (row, written) in change.updatedRows {
        for slot in slots where written.contains(slot) { check(row, slot) }
      }
    }
    return violations
  }
}
