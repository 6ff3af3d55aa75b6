internal import Foundation

extension Store {
  /// Publishes changes committed elsewhere (another process on a shared database) as the next
  /// version, so sessions rebase onto them and observers see them as they see local saves.
  ///
  /// `make` runs with the store's lock held and gets the current version; it returns the
  /// tables of the next version (each changed table a copy it owns), the catalog, and per
  /// entity the rows it wrote, or `nil` to publish nothing. It must not call back into the
  /// store.
  /// - Returns: The version published, or `nil`.
  /// - Throws: What `make` throws; nothing is then published.
  @discardableResult
  public func publishForeign(
    author: String? = nil,
    _ make: (StoreVersion) throws -> (
      catalog: SchemaCatalog, tables: [Table], written: [Int: [Int]]
    )?
  ) throws -> StoreVersion? {
    try state.withLock { state in
      let current = state.version
      guard let made = try make(current) else { return nil }
      let version = StoreVersion(
        number: current.number + 1, catalog: made.catalog, tables: made.tables, over: current)
      // Committed elsewhere, so durable already: shown (after any local version still on its
      // way to the disk), with its change handed to the history and the subscribers then.
      let change =
        changeHub.isObserved || history.isRecording
        ? CommittedChange(between: current, and: version, written: made.written, author: author)
        : nil
      stage(version, ticket: nil, change: change, in: &state)
      return version
    }
  }
}

extension Table {
  /// Makes `row` hold a live object of `generation` (growing the table), keeping the values
  /// it holds; for a persistence that fills tables it loads or receives.
  public func setAlive(row: Int, generation: UInt32) {
    grow(to: row + 1)
    if stamps[row] & 1 == 0 { liveCount += 1 }
    stamps[row] = generation << 1 | 1
  }

  /// Makes `row` hold no object, its values reset, keeping its generation.
  public func setDead(row: Int) {
    grow(to: row + 1)
    if stamps[row] & 1 == 1 { liveCount -= 1 }
    stamps[row] &= ~1
    for column in attributeColumns { column.clear(row: row) }
    for column in relationshipColumns { column.clear(row: row) }
  }
}

extension CommittedChange {
  /// The change from `old` to `new` in the rows `written` (by entity), as a save publishing
  /// `new` would describe it.
  init(
    between old: StoreVersion, and new: StoreVersion, written: [Int: [Int]], author: String?
  ) {
    var inserted: [PersistentIdentifier] = []
    var updated: [Update] = []
    var deleted: [Deletion] = []
    var entities: [EntityTouch] = []
    for (entity, rows) in written.sorted(by: { $0.key < $1.key }) where !rows.isEmpty {
      let table = new.tables[entity]
      let before = entity < old.tables.count ? old.tables[entity] : nil
      let description = new.catalog.entities[entity]
      func identifier(_ row: Int, _ generation: UInt32) -> PersistentIdentifier {
        PersistentIdentifier(
          entityName: description.name, row: UInt32(row), generation: generation)
      }
      var names: Set<String> = []
      var insertedOrDeleted = false
      var relationships = false
      for row in rows {
        let wasAlive = before.map { row < $0.rowCount && $0.isAlive(row) } ?? false
        let isAlive = row < table.rowCount && table.isAlive(row)
        switch (wasAlive, isAlive) {
        case (false, true):
          inserted.append(identifier(row, table.generation(of: row)))
          insertedOrDeleted = true
        case (true, false):
          var values: [String: ModelValue] = [:]
          for (slot, attribute) in description.attributes.enumerated()
          where attribute.preservesValueOnDeletion {
            values[attribute.name] = before!.attributeColumns[slot].value(at: row)
          }
          deleted.append(
            Deletion(
              identifier: identifier(row, before!.generation(of: row)), preservedValues: values))
          insertedOrDeleted = true
        case (true, true):
          let old = before!
          var attributes: Set<String> = []
          for (slot, attribute) in description.attributes.enumerated()
          where !table.attributeColumns[slot].hasSameValue(at: row, as: old.attributeColumns[slot])
          {
            attributes.insert(attribute.name)
          }
          let relationshipsChanged = table.relationshipColumns.indices.contains {
            !table.relationshipColumns[$0].hasSameValue(at: row, as: old.relationshipColumns[$0])
          }
          guard !attributes.isEmpty || relationshipsChanged else { continue }
          names.formUnion(attributes)
          relationships = relationships || relationshipsChanged
          updated.append(
            Update(
              identifier: identifier(row, table.generation(of: row)), attributes: attributes,
              relationshipsChanged: relationshipsChanged))
        case (false, false): continue
        }
      }
      entities.append(
        EntityTouch(
          entity: entity, name: description.name, insertedOrDeleted: insertedOrDeleted,
          attributes: names, relationshipsChanged: relationships))
    }
    self.init(
      version: new.number, author: author, date: Date(), inserted: inserted, updated: updated,
      deleted: deleted, entities: entities)
  }
}

extension StoreVersion {
  /// A version of `catalog` holding `tables` (one per entity, by index), as a persistence
  /// loads it.
  public init(loaded tables: [Table], catalog: SchemaCatalog, number: UInt64 = 0) {
    self.init(number: number, catalog: catalog, tables: tables)
  }
}
