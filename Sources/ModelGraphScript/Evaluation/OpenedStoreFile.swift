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
      let recovered = try files.recover()
      guard recovered.version != nil || create else {
        if let token { files.io.unlock(token) }
        return (nil, Store())
      }
      let store = recovered.version.map { Store(loading: $0) } ?? Store()
      let journal =
        readOnly
        ? Journal(readOnlyAt: files.journalPath)
        : try files.openJournal(
          for: store, after: recovered, rewrite: recovered.version == nil,
          checkpointThreshold: checkpointThreshold)
      store.attach(journal)
      let opened = OpenedStoreFile(files: files, journal: journal, lockToken: token)
      let queue = opened.checkpoints
      journal.onThresholdReached { [weak journal] in
        guard let journal else { return }
        queue.async { _ = try? files.checkpoint(store, journal: journal) }
      }
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

  /// Writes a checkpoint now, after any running in the background.
  func checkpoint(_ store: Store) throws {
    try checkpoints.sync { _ = try files.checkpoint(store, journal: journal) }
  }

  deinit {
    checkpoints.sync {}
    journal.close()
    if let lockToken { files.io.unlock(lockToken) }
  }
}
