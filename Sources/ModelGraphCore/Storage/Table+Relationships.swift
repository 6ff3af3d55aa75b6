extension Table {
  /// The keys relationship `slot` holds at `row`, in order.
  ///
  /// - Complexity: O(1) besides the copy of a to-one key into an array; no dynamic cast.
  public func relatedKeys(row: Int, slot: Int) -> [ObjectKey] {
    let column = relationshipColumns[slot]
    if entity.relationships[slot].isToMany {
      return unsafeDowncast(column, to: KeyListColumn.self)[row]
    }
    return unsafeDowncast(column, to: Column<ObjectKey?>.self)[row].map { [$0] } ?? []
  }

  /// Calls `body` with the keys relationship `slot` holds at `row`, in order, without copying a
  /// to-many list; the buffer is valid only inside `body`.
  ///
  /// A to-many relationship's column is a ``KeyListColumn`` (a final class) and a to-one's is
  /// not, so the column's class tells them apart without copying the relationship's
  /// description.
  public func withRelatedKeys<Result>(
    row: Int, slot: Int, _ body: (UnsafeBufferPointer<ObjectKey>) throws -> Result
  ) rethrows -> Result {
    let column = relationshipColumns[slot]
    if type(of: column) == KeyListColumn.self {
      return try unsafeDowncast(column, to: KeyListColumn.self).withKeys(at: row, body)
    }
    var key = unsafeDowncast(column, to: Column<ObjectKey?>.self)[row] ?? .placeholder
    let count = key == .placeholder ? 0 : 1
    return try withUnsafePointer(to: &key) {
      try body(UnsafeBufferPointer(start: $0, count: count))
    }
  }

  /// Appends the keys relationship `slot` holds at each of `rows`, in order, to `keys`, and
  /// after each row the number of keys `keys` then holds to `ends`: the lists of many rows in
  /// one call, without a closure or a copy per row (a prefetch gathers its owners' lists so).
  ///
  /// - Complexity: O(rows + keys).
  public func appendRelatedKeys(
    rows: UnsafeBufferPointer<Int>, slot: Int, to keys: inout [ObjectKey], ends: inout [Int]
  ) {
    let column = relationshipColumns[slot]
    if type(of: column) == KeyListColumn.self {
      unsafeDowncast(column, to: KeyListColumn.self).appendKeys(rows: rows, to: &keys, ends: &ends)
      return
    }
    let keyColumn = unsafeDowncast(column, to: Column<ObjectKey?>.self)
    ends.reserveCapacity(ends.count + rows.count)
    for row in rows {
      if let key = keyColumn[row] { keys.append(key) }
      ends.append(keys.count)
    }
  }

  /// Adds `key` at the end of the to-many relationship `slot` at `row`.
  ///
  /// - Precondition: `slot` is a to-many relationship.
  /// - Complexity: O(1) amortized when the row's list was the last one written in its chunk.
  public func appendRelatedKey(_ key: ObjectKey, row: Int, slot: Int) {
    unsafeDowncast(relationshipColumns[slot], to: KeyListColumn.self).append(key, at: row)
  }

  /// Whether the to-many relationship `slot` at `row` holds `key`.
  ///
  /// - Precondition: `slot` is a to-many relationship.
  /// - Complexity: O(keys at the row), without copying them.
  public func holdsRelatedKey(_ key: ObjectKey, row: Int, slot: Int) -> Bool {
    unsafeDowncast(relationshipColumns[slot], to: KeyListColumn.self).withKeys(at: row) {
      $0.contains(key)
    }
  }

  /// The key the to-one relationship `slot` holds at `row`, if any.
  ///
  /// - Precondition: `slot` is a to-one relationship.
  public func relatedKey(row: Int, slot: Int) -> ObjectKey? {
    unsafeDowncast(relationshipColumns[slot], to: Column<ObjectKey?>.self)[row]
  }

  /// Stores `key` in the to-one relationship `slot` at `row`.
  ///
  /// - Precondition: `slot` is a to-one relationship.
  public func setRelatedKey(_ key: ObjectKey?, row: Int, slot: Int) {
    unsafeDowncast(relationshipColumns[slot], to: Column<ObjectKey?>.self)[row] = key
  }

  /// Stores `keys` in relationship `slot` at `row` (only the first, for a to-one).
  public func setRelatedKeys(_ keys: [ObjectKey], row: Int, slot: Int) {
    let column = relationshipColumns[slot]
    if entity.relationships[slot].isToMany {
      unsafeDowncast(column, to: KeyListColumn.self)[row] = keys
    } else {
      unsafeDowncast(column, to: Column<ObjectKey?>.self)[row] = keys.first
    }
  }
}

extension SchemaCatalog {
  /// The slot, in entity `target`, of the inverse of relationship `slot` of entity `entity`.
  ///
  /// The inverse is the relationship `inverse:` names, or, when only the other side named
  /// it, the target's relationship whose inverse is this one and whose destination is this
  /// entity or an ancestor.
  public func inverseSlot(of slot: Int, in entity: Int, target: Int) -> Int? {
    let owner = entities[entity]
    let other = entities[target]
    let relationship = owner.relationships[slot]
    if let inverse = relationship.inverse {
      return other.relationshipSlot(named: inverse)
    }
    return other.relationships.firstIndex { candidate in
      candidate.inverse == relationship.name
        && owner.lineage.contains { entities[$0].name == candidate.destination }
    }
  }
}
