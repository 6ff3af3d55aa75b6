import Dispatch
import Foundation

/// The write-ahead journal of a file-backed store: every save appends one record, in commit
/// order, before its version is published.
///
/// `append(number:catalog:tables:change:historyDroppedThrough:)` runs inside the store's publish lock; the sync that makes
/// the record durable runs outside it, in `waitUntilDurable(_:)`: the first waiting thread
/// syncs everything appended so far while the others wait for it (group commit). When its last
/// sync covered several records, that thread first waits a moment for the saves under way
/// (`gather()`), so that they share the sync.
public final class Journal: @unchecked Sendable {
  // @unchecked Sendable: every mutable property is read and written only while `condition` is
  // locked; the descriptor is synced outside the lock only while `syncing` keeps it open.

  /// The journal file's path.
  public let path: String
  /// The file operations used.
  public let io: any FileIO
  /// When a save's record reaches the disk.
  public let durability: Durability
  /// The journal size past which `thresholdReached` is called, once per checkpoint.
  public let checkpointThreshold: Int
  /// Whether the journal refuses every append (the log of a read-only container).
  public let isReadOnly: Bool
  private let condition = NSCondition()
  private var descriptor: Int32
  private var currentGeneration: UInt64
  /// Where the next record goes: the end of the whole records.
  private var fileSize: Int
  /// The file's length: past `fileSize` it holds zeros written ahead, so that a record's sync
  /// rarely has to make a new file size durable too.
  private var allocated: Int
  /// How many bytes of zeros are written ahead at a time.
  let preallocation: Int
  private var appended: UInt64 = 0
  private var synced: UInt64 = 0
  /// How many records were appended, and how many of them a sync covered.
  private var appendedRecords = 0
  private var syncedRecords = 0
  /// The syncs run for saves (``counters``).
  private var syncCount = 0
  /// How long those syncs took together (``counters``).
  private var syncNanoseconds: UInt64 = 0
  /// How many records the last sync covered, and how long it took.
  private var lastBatch = 0
  private var lastSyncNanoseconds: UInt64 = 0
  /// The record count at which the thread waiting in `gather()` is woken (`Int.max`: none
  /// waits).
  private var gatherTarget = Int.max
  /// Signalled by the append that reaches ``gatherTarget``. A semaphore, not `condition`: its
  /// timed wait runs on the monotonic clock, where `NSCondition` only waits until a wall-clock
  /// date, which a clock set back would stretch.
  private let gathered = DispatchSemaphore(value: 0)
  private var syncing = false
  /// Threads waiting in `sync(through:)` for the thread that syncs.
  private var waiting = 0
  private var failure: JournalError?
  private var knownEntities: Int
  /// The Codable shapes the catalog had when the last record was appended.
  private var knownShapes: [String: CodableShape]
  private var tail: [UInt8]?
  private var flushScheduled = false
  private var thresholdSignalled = false
  private var thresholdAction: (@Sendable () -> Void)?
  /// The longest string or data value a record takes (a 4-byte length); tests lower it.
  var valueLengthLimit = Int(UInt32.max)
  /// The longest ``gather()`` waits, in nanoseconds; tests raise it.
  var gatherLimit: UInt64 = 1_000_000
  /// The row coders of each entity's columns (indexed by entity number), made on the
  /// entity's first record.
  private var coders: [[RowCoder]?] = []
  /// The buffer each record is encoded in, kept between appends.
  private var recordBuffer: [UInt8] = []
  /// The zeros written ahead, made on the first preallocation.
  private var zeros: [UInt8] = []

  /// A journal open for appending at the end of `fileSize` bytes.
  init(
    path: String, io: any FileIO, descriptor: Int32, generation: UInt64, fileSize: Int,
    allocated: Int, knownEntities: Int, knownShapes: [String: CodableShape] = [:],
    durability: Durability, checkpointThreshold: Int,
    preallocation: Int
  ) {
    self.path = path
    self.io = io
    self.descriptor = descriptor
    self.currentGeneration = generation
    self.fileSize = fileSize
    self.allocated = max(allocated, fileSize)
    self.preallocation = preallocation
    self.knownEntities = knownEntities
    self.knownShapes = knownShapes
    self.durability = durability
    self.checkpointThreshold = checkpointThreshold
    isReadOnly = false
  }

  /// A journal that refuses every append: the log of a read-only container.
  public init(readOnlyAt path: String) {
    self.path = path
    io = SystemFileIO()
    descriptor = -1
    currentGeneration = 0
    fileSize = 0
    allocated = 0
    preallocation = 0
    knownEntities = 0
    knownShapes = [:]
    durability = .none
    checkpointThreshold = .max
    isReadOnly = true
  }

  deinit {
    if descriptor >= 0 { try? io.close(descriptor) }
  }

  /// The generation the journal's records carry.
  public var generation: UInt64 { condition.withLock { currentGeneration } }

  /// The number of entities the catalog had when the last record was appended (a record
  /// carries the catalog when it grew since).
  public var knownEntityCount: Int { condition.withLock { knownEntities } }

  /// Whether ``close()`` was called.
  public var isClosed: Bool { condition.withLock { descriptor < 0 } }

  /// The journal file's size in bytes.
  public var size: Int { condition.withLock { fileSize } }

  /// The records appended and the syncs run for them since the journal was opened.
  public var counters: JournalCounters {
    condition.withLock {
      JournalCounters(
        records: appendedRecords, syncs: syncCount, syncNanoseconds: syncNanoseconds)
    }
  }

  /// Called (once, until the next checkpoint) when the journal grows past
  /// ``checkpointThreshold``; it must return quickly, it runs inside a save.
  public func onThresholdReached(_ action: @escaping @Sendable () -> Void) {
    condition.withLock { thresholdAction = action }
  }

  /// Appends the record of a save that publishes version `number`; called with the store's
  /// lock held, so records are in commit order.
  ///
  /// - Returns: A ticket for `waitUntilDurable(_:)`.
  /// - Throws: ``JournalError``; the file is then cut back to its last whole record (or, if
  ///   that fails too, the journal refuses every later append).
  func append(
    number: UInt64, catalog: SchemaCatalog, tables: [JournalRecord.TableRows],
    change: CommittedChange? = nil, historyDroppedThrough: UInt64 = 0
  ) throws(JournalError) -> UInt64 {
    condition.lock()
    defer { condition.unlock() }
    if isReadOnly {
      throw JournalError(
        .readOnly, path: path, message: "the container was opened read-only (allowsSave: false)")
    }
    if let failure { throw failure }
    let grew =
      catalog.entities.count > knownEntities || catalog.codableShapes != knownShapes
    // The record is encoded in place after room for its header, in a buffer kept between
    // appends (a small save allocates nothing for its record).
    var writer = ByteWriter()
    swap(&writer.bytes, &recordBuffer)
    defer {
      writer.bytes.removeAll(keepingCapacity: writer.bytes.capacity <= 1 << 20)
      swap(&writer.bytes, &recordBuffer)
    }
    writer.lengthLimit = valueLengthLimit
    writer.bytes.append(contentsOf: repeatElement(0, count: JournalFormat.recordHeaderSize))
    JournalRecord.encode(
      catalog: grew ? catalog : nil, tables: tables, coders: &coders,
      change: change, historyDroppedThrough: historyDroppedThrough, into: &writer)
    if let oversized = writer.oversized {
      throw JournalError(
        .valueTooLarge, path: path,
        message: "a string or data value of \(oversized) bytes is longer than a record can hold "
          + "(\(valueLengthLimit) bytes); nothing was saved")
    }
    JournalFormat.frameRecord(
      in: &writer.bytes, start: 0, generation: currentGeneration, number: number)
    // A record larger than the space written ahead at a time is written as it is.
    if fileSize + writer.bytes.count > allocated, writer.bytes.count <= preallocation {
      if zeros.count != preallocation { zeros = [UInt8](repeating: 0, count: preallocation) }
      do {
        try zeros.withUnsafeBytes { try writeAll($0, at: allocated) }
        allocated += zeros.count
      } catch {
        // Only an optimization: go on without it, from a file cut back to its records.
        try? io.truncate(descriptor, to: fileSize)
        allocated = fileSize
      }
    }
    do {
      try writer.bytes.withUnsafeBytes { try writeAll($0, at: fileSize) }
    } catch {
      let failed = JournalError(
        .io, path: path, offset: fileSize,
        message: "appending the save's record failed, nothing was saved: \(error)")
      do {
        try io.truncate(descriptor, to: fileSize)
        allocated = fileSize
      } catch {
        failure = JournalError(
          .failed, path: path, offset: fileSize,
          message: "an append failed and the journal could not be cut back (\(error)); "
            + "reopen the store")
      }
      throw failed
    }
    fileSize += writer.bytes.count
    allocated = max(allocated, fileSize)
    appended += UInt64(writer.bytes.count)
    appendedRecords += 1
    if appendedRecords >= gatherTarget {
      gatherTarget = .max
      gathered.signal()
    }
    knownEntities = catalog.entities.count
    knownShapes = catalog.codableShapes
    tail?.append(contentsOf: writer.bytes)
    if fileSize > checkpointThreshold, !thresholdSignalled, let thresholdAction {
      thresholdSignalled = true
      thresholdAction()
    }
    return appended
  }

  private func writeAll(_ bytes: UnsafeRawBufferPointer, at position: Int) throws {
    var offset = 0
    while offset < bytes.count {
      let written = try io.write(
        descriptor, UnsafeRawBufferPointer(rebasing: bytes[offset...]), at: position + offset)
      guard written > 0, written <= bytes.count - offset else {
        throw JournalError(
          .io, path: path, message: "write(2) returned \(written) for \(bytes.count - offset)")
      }
      offset += written
    }
  }

  /// Returns once the record of `ticket` is as durable as ``durability`` asks.
  ///
  /// - Throws: ``JournalError`` when the sync fails; the journal then refuses every later append.
  public func waitUntilDurable(_ ticket: UInt64) throws(JournalError) {
    switch durability {
    case .none: return
    case .batched(let every):
      let schedule = condition.withLock {
        defer { flushScheduled = true }
        return !flushScheduled
      }
      guard schedule else { return }
      let nanoseconds =
        every.components.seconds * 1_000_000_000 + every.components.attoseconds
        / 1_000_000_000
      DispatchQueue.global().asyncAfter(deadline: .now() + .nanoseconds(Int(nanoseconds))) {
        [weak self] in
        guard let self else { return }
        let target = self.condition.withLock {
          self.flushScheduled = false
          return self.appended
        }
        try? self.sync(through: target)
      }
    case .full:
      try sync(through: ticket)
    }
  }

  /// Syncs the file until everything up to `ticket` is durable, or waits for the thread that is
  /// already syncing.
  ///
  /// The thread that syncs wakes the saves its sync covered; if records of other saves were
  /// appended meanwhile, it syncs again at once for them (at most ``extraSyncs`` times), so the
  /// next sync does not wait for a woken thread to be scheduled.
  func sync(through ticket: UInt64) throws(JournalError) {
    condition.lock()
    defer { condition.unlock() }
    while true {
      // A record a sync covered is durable, even if a later sync failed.
      if synced >= ticket { return }
      if let failure { throw failure }
      if syncing {
        waiting += 1
        condition.wait()
        waiting -= 1
        continue
      }
      syncing = true
      var rounds = 0
      while true {
        gather()
        let target = appended
        let records = appendedRecords
        let file = descriptor
        condition.unlock()
        let start = DispatchTime.now().uptimeNanoseconds
        var failed: (any Error)?
        do { try io.syncData(file) } catch { failed = error }
        let took = DispatchTime.now().uptimeNanoseconds &- start
        condition.lock()
        syncCount += 1
        syncNanoseconds &+= took
        lastSyncNanoseconds = took
        lastBatch = records - syncedRecords
        syncedRecords = max(syncedRecords, records)
        if let failed {
          failure = JournalError(
            .failed, path: path,
            message: "syncing the journal failed (\(failed)); saves since the last sync may not "
              + "survive a power loss, and the journal takes no more appends; reopen the store")
        } else {
          synced = max(synced, target)
        }
        condition.broadcast()
        rounds += 1
        // Under `.full`, every record appended is a save about to wait for its sync.
        guard failure == nil, appended > synced, waiting > 0 || durability == .full,
          rounds <= Self.extraSyncs
        else {
          break
        }
      }
      syncing = false
      condition.broadcast()
    }
  }

  /// How many more syncs the syncing thread runs for waiters whose records arrived during its
  /// own sync.
  static let extraSyncs = 2

  /// Under ``Durability/full``, when the last sync covered the records of several saves (several
  /// threads save at once), the thread about to sync waits for as many records to be pending,
  /// for at most as long as the last sync took (and `gatherLimit`): the saves under way append
  /// meanwhile and share the sync, instead of each taking a sync of its own. A lone writer's
  /// syncs cover one record each and never wait. Called with `condition` locked; releases it
  /// while it waits.
  private func gather() {
    guard durability == .full, lastBatch > 1, failure == nil else { return }
    let want = lastBatch
    guard appendedRecords - syncedRecords < want else { return }
    let wait = min(lastSyncNanoseconds, gatherLimit)
    let deadline = DispatchTime.now() + .nanoseconds(Int(clamping: wait))
    gatherTarget = syncedRecords + want
    condition.unlock()
    let woken = gathered.wait(timeout: deadline) == .success
    condition.lock()
    guard !woken else { return }
    if gatherTarget == .max {
      // The append that reached the target signalled after the wait timed out: take that
      // signal now (it is there), so that the next gather does not return at once.
      gathered.wait()
    } else {
      gatherTarget = .max
    }
  }

  /// Makes the next sync gather as if the last one had covered `batch` records and taken
  /// `nanoseconds` (tests: a gather made certain, instead of shared syncs that depend on how
  /// threads are scheduled).
  func assumeLastSync(batch: Int, nanoseconds: UInt64) {
    condition.withLock {
      lastBatch = batch
      lastSyncNanoseconds = nanoseconds
    }
  }

  /// Syncs what is pending and closes the file; later appends fail.
  public func close() {
    condition.lock()
    while syncing { condition.wait() }
    if descriptor >= 0 {
      if synced < appended {
        syncCount += 1
        let start = DispatchTime.now().uptimeNanoseconds
        try? io.syncData(descriptor)
        syncNanoseconds &+= DispatchTime.now().uptimeNanoseconds &- start
      }
      try? io.close(descriptor)
      descriptor = -1
    }
    if failure == nil {
      failure = JournalError(.failed, path: path, message: "the journal is closed")
    }
    thresholdAction = nil
    condition.unlock()
  }

  // MARK: Checkpoints

  /// Starts keeping the records appended from now on; called with the store's lock held, when
  /// a checkpoint takes the version it writes.
  func beginCapture() {
    condition.withLock { tail = [] }
  }

  /// Stops keeping records after a checkpoint that failed.
  func abortCapture() {
    condition.withLock {
      tail = nil
      thresholdSignalled = false
    }
  }

  /// Replaces the journal with a new one of `generation` after version `base` (whose catalog
  /// has `entities` entities), holding the
  /// records appended since ``beginCapture()``; called with the store's lock held, after the
  /// snapshot of version `base` is in place.
  ///
  /// The new file is written beside the old, synced and renamed over it, so a crash leaves one
  /// of the two whole; every record it holds is durable when this returns.
  func restart(
    generation: UInt64, base: UInt64, entities: Int, shapes: [String: CodableShape] = [:]
  ) throws {
    condition.lock()
    defer { condition.unlock() }
    defer { tail = nil }
    while syncing { condition.wait() }
    thresholdSignalled = false
    guard descriptor >= 0 else { return }
    var bytes = JournalFormat.header(generation: generation, base: base)
    let kept = tail ?? []
    kept.withUnsafeBytes { raw in
      var position = 0
      while let record = JournalReader.record(at: position, in: raw, generation: currentGeneration)
      {
        JournalFormat.appendRecord(
          to: &bytes, generation: generation, number: record.number,
          payload: Array(raw[record.payload]))
        position = record.payload.upperBound
      }
    }
    try SnapshotFile(path: path, io: io).replace(with: bytes)
    let fresh: Int32
    do {
      fresh = try io.openForWriting(path)
    } catch {
      failure = JournalError(
        .failed, path: path, message: "the new journal could not be opened (\(error))")
      throw error
    }
    try? io.close(descriptor)
    descriptor = fresh
    currentGeneration = generation
    knownEntities = max(knownEntities, entities)
    knownShapes = shapes
    // The new snapshot's schema may differ from the old one (a migrated store): row coders are
    // made again from the tables of the next records.
    coders = []
    fileSize = bytes.count
    allocated = bytes.count
    synced = appended
    syncedRecords = appendedRecords
    condition.broadcast()
    // The records kept from the checkpoint's run may already pass the threshold: ask for the
    // next checkpoint now, not at a next append that may never come.
    if fileSize > checkpointThreshold, let thresholdAction {
      thresholdSignalled = true
      thresholdAction()
    }
  }
}
