extension StoreVersion {
  /// The stored values outside their attributes' declared integer types
  /// (``AttributeDescription/integerWidth``), or no `Float` values in `Float` attributes
  /// (``AttributeDescription/isFloat32``), as ``ConstraintViolation/Rule/outOfRange``
  /// violations: at most `limit` of them, and how many there are in all.
  ///
  /// A file written before the width was declared, or by a process that did not declare it,
  /// may hold such values; a process reading them as the narrower type could not (or would
  /// read another value than the one saved).
  /// - Complexity: O(rows) per attribute with a narrower width.
  public func widthViolations(limit: Int = 100) -> (
    violations: [ConstraintViolation], count: Int
  ) {
    var violations: [ConstraintViolation] = []
    var count = 0
    for entity in catalog.entities where !entity.narrowSlots.isEmpty {
      let table = tables[entity.index]
      for slot in entity.narrowSlots {
        let attribute = entity.attributes[slot]
        table.forEachValue(outOf: attribute, in: table.attributeColumns[slot]) { row, problem in
          count += 1
          guard violations.count < limit else { return }
          violations.append(
            ConstraintViolation(
              key: ObjectKey(entity: entity.index, row: row, generation: table.generation(of: row)),
              entity: entity.name, property: attribute.name, rule: .outOfRange, detail: problem))
        }
      }
    }
    return (violations, count)
  }
}

extension Table {
  /// Calls `body` with each live row whose value in `column` is outside `attribute`'s declared
  /// integer type (``AttributeDescription/integerWidth``) or no `Float` value in a `Float`
  /// attribute (``AttributeDescription/isFloat32``), and why.
  ///
  /// - Complexity: O(rows); O(1) for an attribute without a narrower width.
  func forEachValue(
    outOf attribute: AttributeDescription, in column: AnyColumn,
    _ body: (_ row: Int, _ problem: String) -> Void
  ) {
    guard attribute.hasNarrowerType else { return }
    // The common cases without boxing each value.
    if let width = attribute.integerWidth, let column = column as? Column<Int64> {
      forEachLiveRow { row in
        let value = column[row]
        guard !width.range.contains(value) else { return }
        body(row, attribute.integerWidthProblem(.int(value))!)
      }
      return
    }
    if attribute.isFloat32, let column = column as? Column<Double> {
      forEachLiveRow { row in
        guard let problem = AttributeDescription.float32Problem(column[row]) else { return }
        body(row, problem)
      }
      return
    }
    forEachLiveRow { row in
      guard let problem = attribute.widthProblem(column.value(at: row)) else { return }
      body(row, problem)
    }
  }
}
