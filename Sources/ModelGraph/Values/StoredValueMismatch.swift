public import ModelGraphCore

/// Stops the process: attribute `slot` of `row` holds `stored`, which is no value of the
/// declared type `Storage` (a value written by another version of the type). The message names
/// the class, the property, the object and the value, and how to find such values first.
///
/// Out of line, so the inlined attribute accessors stay small.
@usableFromInline @inline(never)
func _storedValueMismatch<Storage: PersistentValue>(
  _: Storage.Type, _ stored: Storage.Stored, _ table: Table, slot: Int, row: Int
) -> Never {
  let entity = table.entity.name
  let identifier = PersistentIdentifier(
    entityName: entity, row: UInt32(row), generation: table.generation(of: row))
  fatalError(
    "\(entity).\(table.entity.attributes[slot].name) of \(identifier) holds a value stored by "
      + "another version of its type: \(Storage._storedValueProblem(stored)). "
      + "ModelContext.validateStoredValues() lists such values without stopping; a custom "
      + "migration stage can rewrite them")
}
