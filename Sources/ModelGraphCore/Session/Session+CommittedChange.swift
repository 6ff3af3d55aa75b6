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
      rows.sort()
      var previous = -1
      for row in rows where row != previous {
        previous = row
        guard change.deleted[row] == nil else { continue }
        let slots = change.updated[row] ?? SlotSet()
        written.formUnion(slots)
        updated.append(
          CommittedChange.Update(
            identifier: identifier(row, table.generation(of: row)), slots: slots,
            of: attributeNames, relationshipsChanged: change.relationshipsUpdated.contains(row)))
      }
      let names = attributeNames.names(of: written)
      for (row, generation) in change.deleted.isEmpty ? [] : change.deleted.sortedByRow() {
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
}
