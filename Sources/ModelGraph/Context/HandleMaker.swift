import ModelGraphCore

/// Makes the handles of live keys that have none yet, for ``RelatedObjectResolver/resolve(_:into:in:)``:
/// the working table, model class and unsaved state of an entity are found once per run of
/// keys of that entity, not per key.
struct HandleMaker {
  private var entity = -1
  private var table: Unmanaged<Table>?
  private var modelClass: ModelObject.Type?
  /// Whether the session had unsaved changes to ``entity`` when the run began: without any, a
  /// handle made skips the lookup of its row's unsaved state. Making handles changes no row.
  private var hasUnsavedChanges = true

  /// The object of `key`, whose row holds it: the handle registered for the key (in any
  /// state; an earlier key of the pass may have made it) or a new one, registered.
  @inline(__always)
  mutating func object(for key: ObjectKey, in context: ModelContext) -> ModelObject {
    let (found, vacancy) = context.registered.find(entity: Int(key.entity), row: Int(key.row))
    if let found, found._withUnsafeGuaranteedRef({ $0._key.generation == key.generation }) {
      return found.takeUnretainedValue()
    }
    if Int(key.entity) != entity || table == nil || modelClass == nil {
      entity = Int(key.entity)
      table = Unmanaged.passUnretained(context.session.table(entity))
      modelClass = context.modelClass(forEntity: entity)
      hasUnsavedChanges = context.session.hasUnsavedChanges(entity: entity)
    }
    let type = modelClass!
    let applies = hasUnsavedChanges
    return table!._withUnsafeGuaranteedRef {
      context.makeObject(for: key, of: type, in: $0, at: vacancy, appliesUnsavedState: applies)
    }
  }
}
