import Dispatch
import ModelGraphCore

/// The snapshot file and journal a runner's `open` bound, with the file's lock: saves append to
/// the journal; releasing this closes the journal and the lock.
final class OpenedStoreFile {
  let files: StoreFiles
  let journal: Journal
  private let lockToken: Int32?
  /// Runs the checkpoints of the file, one at a time: those `snapshot` asks for and those the
  /// journal's growth starts in the background.
  let checkpoints = DispatchQueue(label: "ModelGraphScript.checkpoint")

  /// Opens `path` as the store's files: locks it (unless `readOnly`), recovers the snapshot and
  /// journal, and attaches the journal (a read-only one refuses saves). A journal past
  /// `checkpointThreshold` bytes is checkpointed in the background.
  ///
  /// - Returns: The file and the store it holds, or `nil` as the file when there is no snapshot
  ///   and `create` is false.
  static func open(
    _ path: String, readOnly: Bool, create: Bool, checkpointThreshold: Int = 64 << 20
  ) throws -> (OpenedStoreFile?, Store) {
    let files = StoreFiles(path: path)
    let token = readOnly ? nil : try files.io.lock(path + ".lock")
    do {
      if !readOnly { files.removeOrphans() }
      let recovered = try files.recover(holdingLock: !readOnly)
      guard recovered.version != nil || create else {
        if let token { files.io.unlock(token) }
        return (nil, Store())
      }
      let store = recovered.version.map { Store(loading: $0) } ?? Store()
      store.history.restore(recovered.history)
      let journal =
        readOnly
        ? Journal(readOnlyAt: files.journalPath)
        : try files.openJournal(
          for: store, after: recovered, rewrite: recovered.version == nil,
          checkpointThreshold: checkpointThreshold)
      store.attach(journal)
      let opened = OpenedStoreFile(files: files, journal: journal, lockToken: token)
      opened.checkpointsInBackground(store)
      return (opened, store)
    } catch {
      if let token { files.io.unlock(token) }
      throw error
    }
  }

  private init(files: StoreFiles, journal: Journal, lockToken: Int32?) {
    self.files = files
    self.journal = journal
    self.lockToken = lockToken
  }

  /// Checkpoints `store` in the background when the journal grows past its threshold.
  private func checkpointsInBackground(_ store: Store) {
    let queue = checkpoints
    let files = files
    journal.onThresholdReached { [weak journal] in
      guard let journal else { return }
      queue.async { _ = try? files.checkpoint(store, journal: journal) }
    }
  }

  /// Writes a checkpoint now, after any running in the background.
  func checkpoint(_ store: Store) throws {
    try checkpoints.sync { _ = try files.checkpoint(store, journal: journal) }
  }

  /// Makes `store` the file's store: writes it as the new snapshot with a fresh journal, then
  /// attaches the journal to it. For a store that replaced the one opened, with another schema
  /// (`alter entity`): the old journal's records follow the old schema, so the new store's
  /// saves cannot go there. A crash leaves the old snapshot and journal, or the new snapshot
  /// (the old journal beside it holds no record past it, and recovery starts a new one).
  ///
  /// - Throws: ``SnapshotError`` or ``JournalError``; `store` then stays unattached.
  func adopt(_ store: Store) throws {
    try checkpoint(store)
    store.attach(journal)
    checkpointsInBackground(store)
  }

  /// Whether `store` is the one this file's journal records (not a replacement to adopt).
  func holds(_ store: Store) -> Bool { store.journal === journal }

  deinit {
    checkpoints.sync {}
    journal.close()
    if let lockToken { files.io.unlock(lockToken) }
  }
}
