import ModelGraphCore

/// Turns related keys into objects across many lists: the working table, liveness and model
/// class of an entity are found once per run of keys of that entity, and the run carries over
/// from one list to the next (a prefetch resolves every owner's list through one resolver).
struct RelatedObjectResolver {
  private var entity = -1
  private var table: Table?
  private var modelClass: ModelObject.Type?

  /// The object of `key` in `context`: the registered one or a new handle; `nil` when the key's
  /// object is no longer alive.
  ///
  /// - Complexity: O(1).
  mutating func object(for key: ObjectKey, in context: ModelContext) -> ModelObject? {
    if Int(key.entity) != entity {
      // The first live key of a run shows that the session knows its entity; the run's later
      // keys are checked against that table directly.
      guard context.session.contains(key) else { return nil }
      entity = Int(key.entity)
      table = context.session.table(entity)
      modelClass = nil
    } else if table?.contains(key) != true {
      return nil
    }
    if let found = context.registeredObject(for: key) { return found }
    let type = modelClass ?? context.modelClass(forEntity: entity)
    modelClass = type
    return context.makeObject(for: key, of: type, in: table!)
  }
}
