internal import Foundation

extension Session {
  /// The change this session's unsaved edits would publish as version `version`.
  ///
  /// Reads the working tables (a deleted object's values are still there until the save).
  /// - Complexity: O(changes).
  func committedChange(version: UInt64) -> CommittedChange {
    var inserted: [PersistentIdentifier] = []
    var updated: [CommittedChange.Update] = []
    var deleted: [CommittedChange.Deletion] = []
    var entities: [CommittedChange.EntityTouch] = []
    entities.reserveCapacity(changes.entityCount)
    deleted.reserveCapacity(changes.reduce(0) { $0 + $1.value.deleted.count })
    for (entity, change) in changes where !change.isEmpty {
      guard let table = working[entity] else { continue }
      let description = base.catalog.entities[entity]
      let name = description.name
      func identifier(_ row: Int, _ generation: UInt32) -> PersistentIdentifier {
        PersistentIdentifier(entityName: name, row: UInt32(row), generation: generation)
      }
      let before = inserted.count
      for row in change.inserted where table.isAlive(row) {
        inserted.append(identifier(row, table.generation(of: row)))
      }
      // Slots per update, named once per entity: no set of names per object.
      let attributeNames = description.attributeNames
      var written = SlotSet()
      var rows = change.updated.keys
      rows += change.relationshipsUpdated
      PackedRowSort.sort(rows: &rows)
      // The deletions by row: an update of an object deleted since is not reported, and the
      // deletions are reported by row.
      let deletions = change.deleted.packedByRow()
      var previous = -1
      for row in rows where row != previous {
        previous = row
        guard !Self.holdsRow(row, packedRows: deletions) else { continue }
        let slots = change.updated[row] ?? SlotSet()
        written.formUnion(slots)
        updated.append(
          CommittedChange.Update(
            identifier: identifier(row, table.generation(of: row)), slots: slots,
            of: attributeNames, relationshipsChanged: change.relationshipsUpdated.contains(row)))
      }
      let names = attributeNames.names(of: written)
      for packed in deletions {
        let (row, generation) = PackedRowSort.unpack(packed)
        var values: [String: ModelValue] = [:]
        for slot in description.preservedSlots {
          values[description.attributes[slot].name] = table.attributeColumns[slot].value(at: row)
        }
        deleted.append(
          CommittedChange.Deletion(identifier: identifier(row, generation), preservedValues: values)
        )
      }
      entities.append(
        CommittedChange.EntityTouch(
          entity: entity, name: name,
          insertedOrDeleted: inserted.count > before || !change.deleted.isEmpty,
          attributes: names, relationshipsChanged: !change.relationshipsUpdated.isEmpty))
    }
    return CommittedChange(
      version: version, author: author, date: Date(), inserted: inserted, updated: updated,
      deleted: deleted, entities: entities)
  }

  /// Whether `packedRows` (packed by ``PackedRowSort``, ascending by row) holds `row`.
  ///
  /// - Complexity: O(log count).
  static func holdsRow(_ row: Int, packedRows: [UInt64]) -> Bool {
    var low = 0
    var high = packedRows.count
    while low < high {
      let middle = (low + high) / 2
      let held = PackedRowSort.unpack(packedRows[middle]).row
      if held == row { return true }
      if held < row { low = middle + 1 } else { high = middle }
    }
    return false
  }
}
