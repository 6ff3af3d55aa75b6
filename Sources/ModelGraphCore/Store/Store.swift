import Synchronization

/// The shared, committed state of a container: the catalog, the current version, row allocation.
///
/// Sessions read a ``StoreVersion`` without locking and publish their changes through
/// ``Session/save(resolving:)``; publishing is the only step that takes the store's lock.
public final class Store: Sendable {
  struct State {
    /// The newest committed version, which saves publish onto; its commit may still be on its
    /// way to the disk.
    var version: StoreVersion
    /// The newest version whose commit is durable: the one readers see (``Store/version``).
    var visible: StoreVersion
    /// Versions committed after ``visible``, oldest first, each waiting for its commit to
    /// become durable.
    var pending: [PendingVersion] = []
    /// The persistence's tickets up to this one are durable.
    var durableThrough: UInt64 = 0
    /// What every save commits to before it publishes (a file-backed store's journal, a
    /// PostgreSQL store); `nil` in memory.
    var persistence: (any StorePersistence)?
  }

  let state: Locked<State>
  /// The number and table count of ``State/visible``, stored by every change of it under the
  /// lock and read without it (``visibleMark``): a session checks on each fetch whether
  /// there is a newer version to refresh to without taking the lock.
  private let visibleNumber: Atomic<UInt64>
  private let visibleTableCount: Atomic<Int>
  /// Whether ``State/persistence`` is set, stored by ``attach(persistence:)`` under the lock
  /// and read without it: a store in memory answers ``persistence`` without the lock.
  private let hasPersistence = Atomic<Bool>(false)
  /// The rows of new objects, handed out without the lock a save publishes under.
  let rowPool: RowPool
  /// The subscribers every save hands its ``CommittedChange`` to, inside the publishing step.
  let changeHub = ChangeHub()
  /// The most recent saves' changes, kept in memory (see ``ChangeHistory/retention``).
  public let history = ChangeHistory()

  /// An empty store with no entities.
  public init() {
    let empty = StoreVersion(number: 0, catalog: SchemaCatalog(), tables: [])
    state = Locked(State(version: empty, visible: empty))
    visibleNumber = Atomic(empty.number)
    visibleTableCount = Atomic(empty.tables.count)
    rowPool = RowPool()
  }

  /// A store holding a loaded version (a snapshot's contents).
  public init(loading version: StoreVersion) {
    state = Locked(State(version: version, visible: version))
    visibleNumber = Atomic(version.number)
    visibleTableCount = Atomic(version.tables.count)
    rowPool = RowPool(tables: version.tables)
  }

  /// The newest version whose save is durable (as the persistence promises): the version
  /// sessions start from and refresh to.
  ///
  /// A save's version is not shown here (nor to subscribers) while its journal record is still
  /// being synced; ``latestCommitted`` is already that version.
  public var version: StoreVersion { state.withLock { $0.visible } }

  /// The number and table count of ``version``, read without the lock: equal to a version's
  /// when the store shows no newer version and no entity registered since.
  ///
  /// A save or a registration that runs meanwhile may or may not be seen, as with
  /// ``version``.
  package var visibleMark: (number: UInt64, tableCount: Int) {
    (visibleNumber.load(ordering: .acquiring), visibleTableCount.load(ordering: .acquiring))
  }

  /// Records `visible`, the version readers now see, as the one ``visibleMark`` describes;
  /// called with the lock held after each change of ``State/visible``.
  func markVisible(_ visible: StoreVersion) {
    visibleTableCount.store(visible.tables.count, ordering: .releasing)
    visibleNumber.store(visible.number, ordering: .releasing)
  }

  /// The newest committed version, whose commit may not be durable yet: the version a save
  /// rebases onto, so that saves waiting for one sync share it.
  public var latestCommitted: StoreVersion { state.withLock { $0.version } }

  /// The journal saves append to, if one is attached.
  public var journal: Journal? { persistence as? Journal }

  /// What saves commit to before they publish, if anything.
  public var persistence: (any StorePersistence)? {
    guard hasPersistence.load(ordering: .acquiring) else { return nil }
    return state.withLock { $0.persistence }
  }

  /// Makes every later save append its changes to `journal` before it publishes them.
  public func attach(_ journal: Journal?) {
    attach(persistence: journal)
  }

  /// Makes every later save commit its changes to `persistence` before it publishes them.
  public func attach(persistence: (any StorePersistence)?) {
    state.withLock {
      $0.persistence = persistence
      hasPersistence.store(persistence != nil, ordering: .releasing)
      rowPool.attach(persistence)
    }
  }

  /// The current catalog.
  public var catalog: SchemaCatalog { version.catalog }

  /// Adds entities (and an empty table for each new one) to the catalog.
  ///
  /// Registering an entity that is already present with the same description does nothing.
  /// - Returns: The catalog after registration.
  /// - Throws: ``SchemaError`` when the descriptions conflict with the catalog or each other.
  @discardableResult
  public func register(_ descriptions: [EntityDescription]) throws -> SchemaCatalog {
    try state.withLock { state in
      let catalog = try state.version.catalog.adding(descriptions)
      guard catalog.entities.count != state.version.catalog.entities.count else { return catalog }
      let fresh = catalog.entities.dropFirst(state.version.tables.count).map {
        Table(entity: $0)
      }
      // Every version still to be shown gets the new entities too, so showing it later does
      // not take them away.
      func extended(_ version: StoreVersion) -> StoreVersion {
        let missing = catalog.entities.count - version.tables.count
        return StoreVersion(
          number: version.number, catalog: catalog,
          tables: version.tables + fresh.suffix(missing))
      }
      state.version = extended(state.version)
      state.visible = extended(state.visible)
      markVisible(state.visible)
      for index in state.pending.indices {
        state.pending[index].version = extended(state.pending[index].version)
      }
      return catalog
    }
  }

  /// Allocates `count` rows of `entity` for new objects, in the order to use them (last first).
  func allocateRows(entity: ResolvedEntity, count: Int) -> [(row: Int, generation: UInt32)] {
    rowPool.allocate(entity: entity, count: count)
  }

  /// Returns rows allocated and never used; nothing ever saw them, so they keep their generation.
  func returnUnused(_ rows: [(row: Int, generation: UInt32)], entity: ResolvedEntity) {
    guard !rows.isEmpty else { return }
    rowPool.returnUnused(rows, entity: entity)
  }

  /// Returns rows that new objects held but never committed; they come back with a new generation.
  func releaseUncommitted(_ rows: [(entity: Int, row: Int, generation: UInt32)]) {
    rowPool.release(rows.map { ($0.entity, $0.row, $0.generation &+ 1) })
  }
}
