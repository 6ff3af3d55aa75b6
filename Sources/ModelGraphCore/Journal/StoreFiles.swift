/// A store's snapshot file and its journal (`<snapshot>-journal`): recovery when the store is
/// opened, the journal saves append to, and checkpoints.
public struct StoreFiles: Sendable {
  /// The snapshot file.
  public let snapshot: SnapshotFile

  /// The files of the store whose snapshot is at `path`.
  public init(path: String, io: any FileIO = SystemFileIO()) {
    snapshot = SnapshotFile(path: path, io: io)
  }

  /// The journal's path: the snapshot's with `-journal` appended.
  public var journalPath: String { snapshot.path + "-journal" }

  /// The file operations used.
  public var io: any FileIO { snapshot.io }

  /// What the files held when they were read.
  public struct Recovered: Sendable {
    /// The snapshot with the journal replayed, or `nil` when there is no snapshot file.
    public var version: StoreVersion?
    /// The snapshot's lineage.
    public var lineage: SnapshotLineage
    /// The kept change history: the snapshot's, with the changes of the replayed records
    /// (empty, everything dropped, for files written before history was kept).
    public var history = KeptHistory()
    /// What the journal held and what was cut.
    public var report: RecoveryReport
    /// The generation of the journal found, if there is one.
    var journalGeneration: UInt64?
    /// The length of the journal's whole records, when the journal is the snapshot's own and
    /// can take further appends.
    var appendableLength: Int?
    /// The journal file's length, zeros written ahead included.
    var fileLength = 0
  }

  /// Removes temporary files that writes interrupted by a crash left.
  public func removeOrphans() {
    snapshot.removeOrphans()
    SnapshotFile(path: journalPath, io: io).removeOrphans()
  }

  /// Loads the snapshot and replays the journal's whole records in order; changes no file.
  ///
  /// A caller that holds the files' lock passes `holdingLock`: no other process can then
  /// append to the journal or cut it while it is read, so it is mapped instead of copied (a
  /// read-only open, whose journal a writer may cut, reads it).
  /// - Throws: ``SnapshotError`` for the snapshot; ``JournalError`` with code
  ///   ``JournalError/Code/generationMismatch`` for a journal of another snapshot (or one
  ///   without a snapshot), ``JournalError/Code/badHeader`` or
  ///   ``JournalError/Code/malformed`` for a damaged journal. A torn or damaged tail is not an
  ///   error: it is left out and counted in the report.
  /// - Complexity: O(snapshot size + journal size).
  public func recover(holdingLock: Bool = false) throws -> Recovered {
    let hasJournal = io.kind(of: journalPath) != nil
    guard let (version, lineage, history) = try snapshot.loadWithHistory() else {
      if hasJournal {
        throw JournalError(
          .generationMismatch, path: journalPath,
          message: "a journal without its snapshot file \(snapshot.path)")
      }
      return Recovered(version: nil, lineage: SnapshotLineage(), report: RecoveryReport())
    }
    guard hasJournal else {
      return Recovered(
        version: version, lineage: lineage, history: history, report: RecoveryReport())
    }
    let replay = { (raw: UnsafeRawBufferPointer) throws -> Recovered in
      let journal = try JournalReader(raw, path: journalPath)
      let own = lineage.generation != 0 && journal.generation == lineage.generation
      let previous = lineage.previous != 0 && journal.generation == lineage.previous
      guard own || previous else {
        throw JournalError(
          .generationMismatch, path: journalPath, offset: 16,
          message: "the journal belongs to snapshot generation \(journal.generation), the "
            + "snapshot \(snapshot.path) is generation \(lineage.generation)")
      }
      var (replayed, report, kept) = try JournalReplay.replay(
        raw, journal: journal, onto: version, history: history, path: journalPath)
      report.journalBytes = raw.count
      // A journal of an older format is not appended to: the store starts a new pair.
      let appendable = own && journal.formatVersion == JournalFormat.version
      return Recovered(
        version: replayed, lineage: lineage, history: kept, report: report,
        journalGeneration: journal.generation,
        appendableLength: appendable ? journal.validLength : nil, fileLength: journal.fileLength)
    }
    if holdingLock { return try io.withSnapshotContents(of: journalPath, replay) }
    return try io.readFile(journalPath).withUnsafeBytes(replay)
  }

  /// The journal `store`'s saves append to after `recovered` was loaded into it.
  ///
  /// When the journal is the snapshot's own and `rewrite` is false, a dropped tail is cut and
  /// appends continue after the last whole record. Otherwise (no snapshot or journal yet, a
  /// journal of the previous generation, or a store that differs from the file, e.g. migrated)
  /// a checkpoint writes the store's version as a new snapshot and starts a new journal.
  /// Appends write `preallocation` bytes of zeros ahead at a time (0: none), so that most
  /// syncs do not change the file's size.
  /// - Throws: ``SnapshotError`` or ``JournalError``; the files are then left as they were or
  ///   as a whole new pair.
  public func openJournal(
    for store: Store, after recovered: Recovered, rewrite: Bool,
    durability: Durability = .full, checkpointThreshold: Int = 64 << 20,
    preallocation: Int = 64 << 10
  ) throws -> Journal {
    let version = store.version
    if !rewrite, let length = recovered.appendableLength {
      // The pair read may have been renamed in by a checkpoint that crashed before syncing the
      // directory: make the entries durable before anything is appended to them.
      try io.syncDirectory(snapshot.directory)
      let descriptor = try io.openForWriting(journalPath)
      do {
        if recovered.report.droppedBytes > 0 {
          try io.truncate(descriptor, to: length)
          try io.syncData(descriptor)
        }
      } catch {
        try? io.close(descriptor)
        throw error
      }
      return Journal(
        path: journalPath, io: io, descriptor: descriptor, generation: recovered.lineage.generation,
        fileSize: length,
        allocated: recovered.report.droppedBytes > 0 ? length : recovered.fileLength,
        knownEntities: recovered.version?.catalog.entities.count ?? 0,
        knownShapes: recovered.version?.catalog.codableShapes ?? [:],
        durability: durability, checkpointThreshold: checkpointThreshold,
        preallocation: preallocation)
    }
    let lineage = SnapshotLineage.next(
      after: recovered.journalGeneration ?? recovered.lineage.generation)
    try snapshot.save(version, lineage: lineage, history: store.history.kept())
    let header = JournalFormat.header(generation: lineage.generation, base: version.number)
    try SnapshotFile(path: journalPath, io: io).replace(with: header)
    let descriptor = try io.openForWriting(journalPath)
    return Journal(
      path: journalPath, io: io, descriptor: descriptor, generation: lineage.generation,
      fileSize: header.count, allocated: header.count,
      knownEntities: version.catalog.entities.count,
      knownShapes: version.catalog.codableShapes, durability: durability,
      checkpointThreshold: checkpointThreshold, preallocation: preallocation)
  }

  /// Replaces whatever the files hold with `version`: removes the journal, then writes the
  /// snapshot with a new generation and an empty journal of it. Take the files' lock first.
  ///
  /// A crash midway leaves the old snapshot without its journal, or the new snapshot without
  /// or with its journal; never a journal beside a snapshot it does not belong to.
  /// - Returns: The snapshot's size in bytes.
  /// - Throws: ``SnapshotError``.
  /// - Parameter history: The kept history the new snapshot carries; none when `nil`.
  @discardableResult
  public func overwrite(with version: StoreVersion, history: KeptHistory? = nil) throws -> Int {
    if io.kind(of: journalPath) != nil {
      try io.remove(journalPath)
      try io.syncDirectory(snapshot.directory)
    }
    let lineage = SnapshotLineage.next(after: 0)
    let size = try snapshot.save(version, lineage: lineage, history: history)
    try SnapshotFile(path: journalPath, io: io).replace(
      with: JournalFormat.header(generation: lineage.generation, base: version.number))
    return size
  }

  /// Writes the store's current version as a new snapshot and restarts the journal, so a crash
  /// at any point leaves the old pair or the new pair.
  ///
  /// Saves go on while the snapshot is written; only the final swap of the journal holds them
  /// (it copies the records appended meanwhile into the new journal). Run checkpoints of one
  /// store one at a time.
  /// - Returns: The snapshot's size in bytes.
  /// - Throws: ``SnapshotError`` or ``JournalError``; the old pair then stays valid.
  @discardableResult
  public func checkpoint(_ store: Store, journal: Journal) throws -> Int {
    guard !journal.isReadOnly else {
      throw JournalError(
        .readOnly, path: journalPath, message: "the store was opened read-only (allowsSave: false)")
    }
    guard !journal.isClosed else {
      throw JournalError(.failed, path: journalPath, message: "the journal is closed")
    }
    // Saves record their history inside the store's lock, so the history taken with the
    // version holds exactly the changes up to it.
    let (version, history) = store.state.withLock { state -> (StoreVersion, KeptHistory) in
      journal.beginCapture()
      return (state.version, store.history.kept())
    }
    let lineage = SnapshotLineage.next(after: journal.generation)
    let size: Int
    do {
      size = try snapshot.save(version, lineage: lineage, history: history)
    } catch {
      journal.abortCapture()
      throw error
    }
    try store.state.withLock { _ throws in
      try journal.restart(
        generation: lineage.generation, base: version.number,
        entities: version.catalog.entities.count, shapes: version.catalog.codableShapes)
    }
    return size
  }
}
