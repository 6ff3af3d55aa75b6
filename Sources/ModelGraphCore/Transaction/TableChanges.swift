/// What one session changed in one table since its base version.
struct TableChanges {
  /// Rows of new objects, in insertion order (some may have been deleted again).
  var inserted: [Int] = []
  /// Attribute slots written, per row of an object that exists in the base version.
  var updated = RowMap<SlotSet>()
  /// Rows of base-version objects whose relationships were written.
  var relationshipsUpdated: Set<Int> = []
  /// Rows of base-version objects deleted, with their generation, in the order deleted.
  var deleted = DeletedRows()

  var isEmpty: Bool {
    inserted.isEmpty && updated.isEmpty && relationshipsUpdated.isEmpty && deleted.isEmpty
  }
}
