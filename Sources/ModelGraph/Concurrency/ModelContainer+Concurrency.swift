internal import Dispatch

extension ModelContainer {
  /// Writes the whole committed store to the configuration's snapshot file, as ``snapshot()-1hoox``
  /// does, on a dispatch queue instead of the caller's thread.
  ///
  /// The caller suspends until the file is written and synced; no thread of the cooperative
  /// pool waits meanwhile. The store is read when the write starts, so every save that
  /// returned before the call is included. Snapshots of one container are written one at a
  /// time, in the order they were requested. Like the synchronous call, it is a checkpoint: the
  /// journal starts anew.
  /// - Returns: The size of the file in bytes.
  /// - Throws: ``SnapshotError`` or ``JournalError``; the previous files are then left valid.
  /// - Complexity: O(size of the store).
  @discardableResult
  public func snapshot() async throws -> Int {
    let (store, file) = (store, files)
    return try await withCheckedThrowingContinuation { continuation in
      snapshotQueue.async {
        continuation.resume(with: Result { try Self.writeSnapshot(of: store, to: file) })
      }
    }
  }

  /// Runs `body` with a new context on a serial queue of its own and returns what it returns,
  /// as Core Data's `performBackgroundTask` does.
  ///
  /// The context lives only for the call: save inside `body`, or its changes are lost.
  /// - Parameter body: The work; it must not let model objects or the context escape.
  /// - Throws: What `body` throws.
  public func performBackgroundTask<R: Sendable>(
    _ body: sending (ModelContext) throws -> R
  ) async rethrows -> R {
    try await ModelWorker(modelContainer: self).perform(body)
  }
}
