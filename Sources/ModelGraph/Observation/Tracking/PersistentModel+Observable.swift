public import ModelGraphCore
public import Observation

/// Model objects are `Observable`, as SwiftData's are: inside `withObservationTracking`,
/// reading an attribute or relationship of a managed object tracks it.
///
/// The tracking fires when the object's context writes the property (an assignment, a
/// relationship edit or its inverse, a rollback), and when the context moves onto another
/// context's save that changed it (a fetch, `model(for:)` or a save takes in other contexts'
/// saves). See <doc:ObservingModels> for the precise rules.
extension ModelObject: Observable {}

/// Tells the observation registrar of `table`'s context that attribute `slot` of `owner`,
/// in `row`, was read.
///
/// Reaches the registrar through the table the read already holds, not through the object,
/// so a read outside `withObservationTracking` touches no more of the object than before:
/// one call into Observation, which finds no tracking and returns.
@usableFromInline
func _accessAttribute(
  _ table: Unmanaged<Table>, _ owner: Unmanaged<ModelObject>, slot: Int, row: Int
) {
  guard let attachment = table._withUnsafeGuaranteedRef({ $0.attachment }) else {
    owner._withUnsafeGuaranteedRef { TableObservation.attach(to: table, of: $0) }
    return _accessAttribute(table, owner, slot: slot, row: row)
  }
  attachment._withUnsafeGuaranteedRef { attached in
    let observation = unsafeDowncast(attached, to: TableObservation.self)
    guard observation.observesReads else { return }
    observation.reads.reported = true
    observation.keyPaths.unretainedAttribute(slot, row: row)._withUnsafeGuaranteedRef { keyPath in
      owner._withUnsafeGuaranteedRef { model in
        observation.registrar.access(model, keyPath: keyPath)
      }
    }
  }
}

extension ModelObject {
  /// Tells `context`'s observation registrar (the object's context) that relationship `slot`
  /// was read.
  ///
  /// The class info and key path are used unretained (class infos live as long as the
  /// process, and each keeps its key paths), so a read takes no reference count here besides
  /// Observation's own.
  @inline(__always)
  final func accessRelationship(slot: Int, in context: ModelContext) {
    let observation = context.observation
    guard observation.observesReads else { return }
    observation.reads.reported = true
    guard context.supersededHandles.isEmpty else {
      // Reads report the key paths of the object's nearest known class, as attribute reads do
      // (through the table), so that a write through either handle fires them.
      let keyPath = context.observedInfo(of: self).observedKeyPaths.relationship(slot, row: _row)
      observation.registrar.access(self, keyPath: keyPath)
      return
    }
    _classInfoReference._withUnsafeGuaranteedRef { info in
      info.observedKeyPaths.unretainedRelationship(slot, row: _row)._withUnsafeGuaranteedRef {
        observation.registrar.access(self, keyPath: $0)
      }
    }
  }
}

/// What reads through one working table of a context report to: the context's registrar and
/// the key paths of the table's class; kept alive by the context, attached to the table.
final class TableObservation {
  let registrar: ObservationRegistrar
  let keyPaths: ObservedKeyPaths
  /// ``ModelContext/observesReads`` of the context.
  var observesReads = true
  /// The context's record that a read was reported (``ContextObservation/mayBeTracked``).
  let reads: ReportedReads

  private init(registrar: ObservationRegistrar, keyPaths: ObservedKeyPaths, reads: ReportedReads) {
    self.registrar = registrar
    self.keyPaths = keyPaths
    self.reads = reads
  }

  /// Attaches the observation state of `model`'s context and of the table's class to `table`
  /// (the working table `model` is bound to), once per table.
  ///
  /// The table's class is the one the context makes its handles of, which is `model`'s own
  /// class except for a handle made with an ancestor's class before the entity's own was known
  /// (see `ModelContext.refreshInexactClasses()`): its key paths cover every slot of either.
  static func attach(to table: Unmanaged<Table>, of model: ModelObject) {
    guard let context = model._context else {
      fatalError("\(type(of: model)) is bound to a table without a context")
    }
    let entity = table._withUnsafeGuaranteedRef { $0.entity.index }
    let modelClass = context.modelClassIfAny(forEntity: entity) ?? type(of: model)
    let info =
      modelClass == type(of: model) ? model._classInfo : ModelClassInfo.info(for: modelClass)
    let observation = TableObservation(
      registrar: context.observation.registrar, keyPaths: info.observedKeyPaths,
      reads: context.observation.reads)
    observation.observesReads = context.observation.observesReads
    context.observation.tables.append(observation)
    table.takeUnretainedValue().attachment = Unmanaged.passUnretained(observation)
  }
}
