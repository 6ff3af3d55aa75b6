internal import Dispatch
public import ModelGraphCore
internal import Synchronization

/// The store of a set of model classes, shared by every ``ModelContext`` made on it.
///
/// ```swift
/// let container = try ModelContainer(
///   for: Trip.self, configurations: ModelConfiguration(isStoredInMemoryOnly: true))
/// let context = ModelContext(container)
/// ```
/// Registering a base class is enough: its subclasses are registered the first time they are
/// inserted, fetched or named in a type test. A container is `Sendable`; contexts are not.
public final class ModelContainer: Sendable {
  /// The engine's store.
  public let store: Store
  /// The configurations the container was made with.
  public let configurations: [ModelConfiguration]
  /// The snapshot file backing the store, if the configuration names one.
  public let snapshotFile: SnapshotFile?
  /// The snapshot file and journal backing the store, if the configuration names one.
  public let files: StoreFiles?
  /// What opening the store found in its journal: records replayed, and the records and bytes
  /// of a torn or damaged tail that were cut. Zeros for a store in memory.
  public let recoveryReport: RecoveryReport
  /// The changes migrated without a plan when the container opened its file (classes,
  /// attributes and relationships added or removed, renames through `originalName`), also
  /// written to standard error; empty when the file matched the classes or a plan migrated it.
  public let automaticMigration: [SchemaDifference]
  private let lockToken: Int32?
  /// Runs every snapshot write of the container, one at a time, so a write that reads a newer
  /// version is never overtaken by one that read an older version.
  let snapshotQueue = DispatchQueue(label: "ModelGraph.ModelContainer.snapshot")
  private let classes = Locked<ClassTable>(ClassTable())
  /// The number of times classes were registered, so a context whose handles of an entity
  /// stand in with an ancestor's class knows to look that entity up again.
  let classRegistrations = Atomic<Int>(0)

  struct ClassTable: @unchecked Sendable {
    // @unchecked Sendable: metatypes of model classes are immutable; reached only via the mutex.
    var entityByClass: [ObjectIdentifier: Int] = [:]
    var classByEntity: [Int: ModelObject.Type] = [:]
  }

  /// Makes a container for model classes and their subclasses.
  ///
  /// - Parameters:
  ///   - types: The model classes; listing subclasses is allowed, not required.
  ///   - configurations: Where the data lives; in memory when omitted.
  /// - Throws: ``SchemaError`` naming the class and property of the first problem found: a
  ///   stored property that is not marked, an unsupported attribute type, a property declared
  ///   twice in one hierarchy, an inverse that is not a relationship.
  public convenience init(
    for types: any PersistentModel.Type..., configurations: ModelConfiguration...
  ) throws {
    try self.init(for: types, configurations: configurations)
  }

  /// Makes a container for an array of model classes.
  ///
  /// With a ``ModelConfiguration/url`` the container takes an exclusive lock on the store file,
  /// removes temporary files a crash left, loads the snapshot if the file exists and replays
  /// its journal (``recoveryReport`` tells what was replayed and what torn tail was cut). From
  /// then on every ``ModelContext/save()`` appends to the journal and returns once the change
  /// is durable. With ``ModelConfiguration/allowsSave`` `false` no lock is taken and no file
  /// is changed.
  /// - Throws: ``SnapshotError`` for a locked, unreadable or damaged file (a damaged file is
  ///   never replaced by an empty store); ``JournalError`` for a journal of another snapshot
  ///   or with a damaged header; ``MigrationError`` with code
  ///   ``MigrationError/Code/schemaMismatch`` listing every difference (entity, property, what
  ///   changed) when the file's schema differs from the classes'; ``ModelError`` with code
  ///   ``ModelError/Code/invalidConfiguration`` for several different configurations (one
  ///   container is one store). Subclasses that are not listed are compared when they are
  ///   first used.
  public convenience init(
    for types: [any PersistentModel.Type], configurations: [ModelConfiguration] = [],
    fileIO: any FileIO = SystemFileIO()
  ) throws {
    try self.init(
      for: types, migrationPlan: nil, configurations: configurations, fileIO: fileIO)
  }

  /// Makes a container for model classes whose stored data a plan migrates.
  ///
  /// The file's schema is matched to a version of the plan by content, and migrated stage by
  /// stage to the plan's last version, all or nothing; the migrated store is written back to
  /// the file (atomically) before the initializer returns, so the migration runs once. If
  /// any stage fails, the file is left as it was. The plan is checked even when there is no
  /// file or nothing to migrate. The classes of the plan's last version are registered
  /// besides `types`.
  /// - Parameters:
  ///   - types: The model classes; they must be those of the plan's last version.
  ///   - migrationPlan: The versions and stages, or `nil` to migrate nothing.
  ///   - configurations: Where the data lives; in memory when omitted.
  ///   - fileIO: The file operations used; tests inject faults through it.
  /// - Throws: ``MigrationError``, ``SnapshotError``, ``SchemaError``, or the error a custom
  ///   stage throws.
  public init(
    for types: [any PersistentModel.Type], migrationPlan: (any SchemaMigrationPlan.Type)?,
    configurations: [ModelConfiguration] = [], fileIO: any FileIO = SystemFileIO()
  ) throws {
    var distinct: [ModelConfiguration] = []
    for configuration in configurations where !distinct.contains(configuration) {
      distinct.append(configuration)
    }
    guard distinct.count <= 1 else {
      throw ModelError(
        .invalidConfiguration,
        message:
          "a container keeps all its classes in one store: give one ModelConfiguration, "
          + "not \(distinct.count) different ones")
    }
    let configurations = distinct.isEmpty ? [ModelConfiguration()] : distinct
    self.configurations = configurations
    let loader = try StoreLoader(types: types, plan: migrationPlan)
    if configurations[0].isPostgreSQL, let url = configurations[0].url {
      let opened = try Self.openPostgreSQL(url, loader: loader)
      store = opened.store
      automaticMigration = opened.migrated
      Self.log(automaticMigration, path: Self.redacted(url))
      files = nil
      snapshotFile = nil
      lockToken = nil
      recoveryReport = RecoveryReport()
    } else if let url = configurations[0].url, !configurations[0].isStoredInMemoryOnly {
      let configuration = configurations[0]
      let files = StoreFiles(path: url.path, io: fileIO)
      let token = configuration.allowsSave ? try fileIO.lock(url.path + ".lock") : nil
      do {
        let opened = try Self.open(files, loader: loader, configuration: configuration)
        store = opened.store
        recoveryReport = opened.report
        automaticMigration = opened.migrated
        Self.log(automaticMigration, path: url.path)
        if configuration.allowsSave {
          let journal = try files.openJournal(
            for: store, after: opened.recovered, rewrite: opened.changed,
            durability: configuration.durability,
            checkpointThreshold: configuration.checkpointThreshold)
          store.attach(journal)
          let (store, queue) = (store, snapshotQueue)
          journal.onThresholdReached { [weak journal] in
            guard let journal else { return }
            queue.async { _ = try? files.checkpoint(store, journal: journal) }
          }
        } else {
          store.attach(Journal(readOnlyAt: files.journalPath))
        }
      } catch {
        if let token { fileIO.unlock(token) }
        throw error
      }
      self.files = files
      snapshotFile = files.snapshot
      lockToken = token
    } else {
      store = Store()
      files = nil
      snapshotFile = nil
      lockToken = nil
      recoveryReport = RecoveryReport()
      automaticMigration = []
    }
    for type in loader.types { _ = try entityIndex(for: type) }
  }

  /// Recovers the files into a store: a writable open removes orphaned temporary files; a
  /// read-only one tries again when a checkpoint of another process replaced the pair between
  /// its reads.
  private static func open(
    _ files: StoreFiles, loader: StoreLoader, configuration: ModelConfiguration
  ) throws -> (
    store: Store, recovered: StoreFiles.Recovered, report: RecoveryReport, changed: Bool,
    migrated: [SchemaDifference]
  ) {
    if configuration.allowsSave { files.removeOrphans() }
    var attempt = 0
    while true {
      do {
        // A writable open holds the files' lock: the journal is mapped, not copied.
        let recovered = try files.recover(holdingLock: configuration.allowsSave)
        let loaded = try loader.load(recovered.version, path: files.snapshot.path)
        loaded.store.history.restore(recovered.history)
        return (
          loaded.store, recovered, recovered.report, loaded.changed, loaded.automaticMigration
        )
      } catch let error as JournalError
        where error.code == .generationMismatch && !configuration.allowsSave && attempt < 5
      {
        attempt += 1
      }
    }
  }

  /// A container on a store made elsewhere (a migration stage's), with no file.
  init(store: Store, types: [ModelObject.Type]) throws {
    self.store = store
    configurations = [ModelConfiguration(isStoredInMemoryOnly: true)]
    files = nil
    recoveryReport = RecoveryReport()
    automaticMigration = []
    snapshotFile = nil
    lockToken = nil
    for type in types { _ = try entityIndex(for: type) }
  }

  deinit {
    if let journal = store.journal, !journal.isReadOnly {
      // A checkpoint still running must finish before the lock goes: another process that
      // took the files meanwhile could otherwise see its snapshot replaced by this one's.
      snapshotQueue.sync {}
      journal.close()
    }
    if store.journal == nil { store.persistence?.close() }
    if let lockToken, let snapshotFile { snapshotFile.io.unlock(lockToken) }
  }

  /// Writes the whole committed store to the configuration's snapshot file and starts a new
  /// journal (a checkpoint), atomically and durably: a crash at any point leaves the old
  /// snapshot and journal or the new pair.
  ///
  /// Saves need no snapshot to be durable (each appends to the journal); a checkpoint keeps the
  /// journal short, so opening the store replays less. Unsaved changes of contexts are not
  /// included. Checkpoints of a container run one at a time, each of a version no older than
  /// the one before.
  /// - Returns: The size of the snapshot file in bytes.
  /// - Throws: ``SnapshotError`` or ``JournalError``; the previous files are then left valid.
  /// - Complexity: O(size of the store).
  @discardableResult
  public func snapshot() throws -> Int {
    try snapshotQueue.sync { try Self.writeSnapshot(of: store, to: files) }
  }

  /// Checkpoints the store into `files`; runs on ``snapshotQueue``.
  ///
  /// Static, so an asynchronous write holds the store and the files but not the container
  /// (whose release waits for the write before it closes the journal and the lock).
  static func writeSnapshot(of store: Store, to files: StoreFiles?) throws -> Int {
    guard let files else {
      throw SnapshotError(
        .io, path: "", section: "snapshot",
        message: "the container is in memory only; make it with ModelConfiguration(url:)")
    }
    guard let journal = store.journal else {
      return try files.snapshot.save(store.version, history: store.history.kept())
    }
    return try files.checkpoint(store, journal: journal)
  }

  /// The entity index of `type`, registering it (and its ancestors and relationship
  /// destinations) on first use.
  func entityIndex(for type: ModelObject.Type) throws -> Int {
    guard type != ModelObject.self else {
      throw SchemaError(
        .notAModelClass, entity: "ModelObject",
        message:
          "ModelObject is the base class of model classes: fetch, insert or list a model class")
    }
    let key = ObjectIdentifier(type)
    if let index = classes.withLock({ $0.entityByClass[key] }) { return index }
    var descriptions: [EntityDescription] = []
    var lineage: [ModelObject.Type] = []
    var next: ModelObject.Type? = type
    while let current = next {
      let info = ModelClassInfo.info(for: current)
      descriptions.insert(try info.persistedDescription(), at: 0)
      lineage.append(current)
      next = info.parentClass
    }
    try checkDestinations(of: lineage)
    let catalog = try store.register(descriptions)
    store.record(codableShapes: Self.codableShapes(of: lineage))
    let index = classes.withLock { table in
      for model in lineage {
        let entity = catalog.entity(named: String(describing: model))!.index
        table.entityByClass[ObjectIdentifier(model)] = entity
        table.classByEntity[entity] = table.classByEntity[entity] ?? model
      }
      return table.entityByClass[key]!
    }
    classRegistrations.add(1, ordering: .releasing)
    for model in lineage {
      for field in ModelClassInfo.info(for: model).relationshipWrappers {
        _ = try entityIndex(for: field.type.destinationType)
      }
    }
    return index
  }

  /// Throws the schema error of the first class not yet registered that `lineage` reaches
  /// through relationships and cannot be described, before anything is registered: a class
  /// whose relationship's destination cannot be stored is refused every time, not only the
  /// first.
  private func checkDestinations(of lineage: [ModelObject.Type]) throws {
    var seen = Set(lineage.map(ObjectIdentifier.init))
    var pending = lineage
    while let next = pending.popLast() {
      for field in ModelClassInfo.info(for: next).relationshipWrappers {
        var destination: ModelObject.Type? = field.type.destinationType
        while let current = destination, seen.insert(ObjectIdentifier(current)).inserted,
          classes.withLock({ $0.entityByClass[ObjectIdentifier(current)] }) == nil
        {
          let info = ModelClassInfo.info(for: current)
          _ = try info.persistedDescription()
          pending.append(current)
          destination = info.parentClass
        }
      }
    }
  }

  /// The model class of entity `index`; for an entity known only from a loaded file, the
  /// class of that name in the module of a registered class, if there is one.
  func modelClass(forEntity index: Int) -> ModelObject.Type? {
    if let known = classes.withLock({ $0.classByEntity[index] }) { return known }
    guard let entity = store.catalog.entities.dropFirst(index).first else { return nil }
    let modules = classes.withLock { table in
      Set(
        table.classByEntity.values.map { String(reflecting: $0) }.compactMap { name in
          name.lastIndex(of: ".").map { String(name[..<$0]) }
        })
    }
    for module in modules {
      guard let found = _typeByName("\(module).\(entity.name)") as? ModelObject.Type,
        (try? entityIndex(for: found)) == index
      else { continue }
      return found
    }
    return nil
  }
}
