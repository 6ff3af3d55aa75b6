import ModelGraphCore
import Observation

/// A context's side of `Observable` model objects: the registrar its objects report reads to,
/// and the version through which it has told trackings about other contexts' saves.
final class ContextObservation {
  /// Every managed object of the context reports reads and writes here.
  let registrar = ObservationRegistrar()
  /// The store version whose changes the context's trackings have been told about.
  var version: UInt64
  /// The state attached to the context's working tables, kept alive here.
  var tables: [TableObservation] = []
  /// See ``ModelContext/observesReads``. Read on every relationship read, on the context's
  /// thread only, so without a dynamic exclusivity check.
  @exclusivity(unchecked) var observesReads = true {
    didSet { for table in tables { table.observesReads = observesReads } }
  }
  /// Set by the first read reported to ``registrar``, shared with the tables' state.
  let reads = ReportedReads()

  init(version: UInt64) {
    self.version = version
  }

  /// Whether a tracking can observe any property of the context's objects: only once a read
  /// was reported to the registrar (`access`), since a tracking (`withObservationTracking`,
  /// `Observations`) observes exactly the properties read inside it. Until then, writes and
  /// other contexts' saves fire nothing, and skip the registrar's two calls per write.
  var mayBeTracked: Bool { reads.reported }
}

/// Whether a context ever reported a read to its observation registrar; set once, never
/// cleared (trackings installed by that read may live on). On the context's thread only.
final class ReportedReads {
  @exclusivity(unchecked) var reported = false
}

extension ModelContext {
  /// Whether reads of the context's objects report to Observation, so that
  /// `withObservationTracking` tracks them; `true` by default, as in SwiftData.
  ///
  /// A read outside any tracking still makes one call into Observation (which finds no
  /// tracking); a context that reads in bulk and binds no view (an export, a report, a
  /// request handler) can turn this off to save that call. Writes fire trackings either way.
  public var observesReads: Bool {
    get { observation.observesReads }
    set { observation.observesReads = newValue }
  }

  /// Fires the trackings of attribute `slot` of `model`, which the context just wrote.
  ///
  /// The class info and key path are used unretained (class infos live as long as the
  /// process, and each keeps its key paths): a write takes no reference count of its own here.
  func observationDidWrite(_ model: ModelObject, attributeSlot slot: Int) {
    guard observation.mayBeTracked else { return }
    guard supersededHandles.isEmpty else {
      fire(model, observedInfo(of: model).observedKeyPaths.attribute(slot, row: model._row))
      return
    }
    let registrar = observation.registrar
    model._classInfoReference._withUnsafeGuaranteedRef { info in
      info.observedKeyPaths.unretainedAttribute(slot, row: model._row)._withUnsafeGuaranteedRef {
        registrar.willSet(model, keyPath: $0)
        registrar.didSet(model, keyPath: $0)
      }
    }
  }

  /// Fires the trackings of relationship `slot` of `model`, the context's handle of an object
  /// whose relationship the session just wrote.
  ///
  /// Like an attribute's write, it takes no reference count of its own for the class info or
  /// the key path.
  func observationDidWrite(_ model: ModelObject, relationshipSlot slot: Int) {
    guard observation.mayBeTracked else { return }
    guard supersededHandles.isEmpty else {
      fire(model, observedInfo(of: model).observedKeyPaths.relationship(slot, row: model._row))
      return
    }
    let registrar = observation.registrar
    model._classInfoReference._withUnsafeGuaranteedRef { info in
      info.observedKeyPaths.unretainedRelationship(slot, row: model._row)
        ._withUnsafeGuaranteedRef {
          registrar.willSet(model, keyPath: $0)
          registrar.didSet(model, keyPath: $0)
        }
    }
  }

  /// Fires the trackings of every property of `model` (its changes were discarded, or it is
  /// leaving its row).
  func observationDidRevert(_ model: ModelObject) {
    guard observation.mayBeTracked else { return }
    fireEveryProperty(of: model, keyPaths: observedInfo(of: model).observedKeyPaths)
  }

  /// Fires the trackings of every property of `handle` with its own class's key paths, which
  /// reads through it reported before a nearer class of its object was known: the handle
  /// was just superseded, and reads now report that class's key paths.
  func observationDidSupersede(_ handle: ModelObject) {
    guard observation.mayBeTracked else { return }
    fireEveryProperty(of: handle, keyPaths: handle._classInfo.observedKeyPaths)
  }

  /// The class whose key paths reads of `model`'s properties report: the class the context
  /// makes its object's handles of, which is `model`'s own class unless `model` is a
  /// superseded handle (``ModelContext/refreshInexactClasses()``). Its slots cover `model`'s.
  func observedInfo(of model: ModelObject) -> ModelClassInfo {
    guard !supersededHandles.isEmpty,
      let current = modelClassIfAny(forEntity: Int(model._key.entity)),
      current != type(of: model)
    else { return model._classInfo }
    return ModelClassInfo.info(for: current)
  }

  private func fireEveryProperty(of model: ModelObject, keyPaths: ObservedKeyPaths) {
    for slot in 0..<keyPaths.attributeCount {
      fire(model, keyPaths.attribute(slot, row: model._row))
    }
    for slot in 0..<keyPaths.relationshipCount {
      fire(model, keyPaths.relationship(slot, row: model._row))
    }
  }

  /// Marks the context's own save as seen: its writes fired their trackings as they were made.
  func observationDidSave() {
    observation.version = session.base.number
  }

  /// Fires the trackings of the properties other contexts' saves changed, after the session
  /// moved onto them (from ``ContextObservation/version`` to `last`, by default its base
  /// version).
  ///
  /// The changes come from the store's history; when it does not hold all of them (dropped, or
  /// saves whose commits are not durable yet), every property of every class with registered
  /// objects fires (never a missed change).
  /// - Complexity: O(log history + objects changed), each property and row bucket fired once.
  func observationDidAbsorbForeignChanges(through last: UInt64? = nil) {
    let from = observation.version
    let through = last ?? session.base.number
    observation.version = through
    guard through > from, observation.mayBeTracked else { return }
    guard let changes = container.store.history.changes(after: from, through: through) else {
      fireEveryRegisteredProperty()
      return
    }
    var fired = Set<KeyPath<ModelObject, Int>>()
    for change in changes {
      for update in change.updated {
        guard let (model, info) = observedHandle(update.identifier) else { continue }
        let keyPaths = info.observedKeyPaths
        let row = Int(update.identifier.row)
        for name in update.attributes {
          guard let slot = info.attributeWrappers.firstIndex(where: { $0.name == name }) else {
            continue
          }
          fire(model, keyPaths.attribute(slot, row: row), once: &fired)
        }
        if update.relationshipsChanged {
          for slot in 0..<keyPaths.relationshipCount {
            fire(model, keyPaths.relationship(slot, row: row), once: &fired)
          }
        }
      }
      for deletion in change.deleted {
        guard let (model, info) = observedHandle(deletion.identifier) else { continue }
        let keyPaths = info.observedKeyPaths
        let row = Int(deletion.identifier.row)
        for slot in 0..<keyPaths.attributeCount {
          fire(model, keyPaths.attribute(slot, row: row), once: &fired)
        }
        for slot in 0..<keyPaths.relationshipCount {
          fire(model, keyPaths.relationship(slot, row: row), once: &fired)
        }
      }
    }
  }

  /// The context's handle for `identifier` and its class's layout, if it has one: only a
  /// handle can have been read.
  private func observedHandle(_ identifier: PersistentIdentifier) -> (
    ModelObject, ModelClassInfo
  )? {
    guard let entity = session.catalog.entity(named: identifier.entityName),
      let model = registeredObject(
        for: ObjectKey(
          entity: entity.index, row: Int(identifier.row), generation: identifier.generation))
    else { return nil }
    return (model, model._classInfo)
  }

  private func fireEveryRegisteredProperty() {
    guard observation.mayBeTracked else { return }
    for entity in 0..<registered.entityCount where registered.count(ofEntity: entity) > 0 {
      guard let row = registered.rows(ofEntity: entity).first,
        let model = registered.handle(entity: entity, row: row)?.takeUnretainedValue()
      else { continue }
      let keyPaths = model._classInfo.observedKeyPaths
      for bucket in 0..<ObservedKeyPaths.bucketCount {
        for slot in 0..<keyPaths.attributeCount {
          fire(model, keyPaths.attribute(slot, row: bucket))
        }
        for slot in 0..<keyPaths.relationshipCount {
          fire(model, keyPaths.relationship(slot, row: bucket))
        }
      }
    }
  }

  private func fire(
    _ model: ModelObject, _ keyPath: KeyPath<ModelObject, Int>,
    once fired: inout Set<KeyPath<ModelObject, Int>>
  ) {
    guard fired.insert(keyPath).inserted else { return }
    fire(model, keyPath)
  }

  private func fire(_ model: ModelObject, _ keyPath: KeyPath<ModelObject, Int>) {
    observation.registrar.willSet(model, keyPath: keyPath)
    observation.registrar.didSet(model, keyPath: keyPath)
  }
}
