import Dispatch

/// Writes the pieces of a snapshot on a second thread while the next piece is encoded: the
/// copy of a piece into the page cache takes about as long as encoding it.
///
/// Pieces are written one at a time, in order, so the file and every fault a ``FileIO`` injects
/// see the same calls as a write on the caller's thread. An error of the write is rethrown by
/// the next ``submit(_:)`` or by ``finish()``; nothing is written after it.
final class SnapshotPipeline: @unchecked Sendable {
  // @unchecked Sendable: `write`, `piece` and `failure` are used by the writing thread only
  // between a submit and its signal of `idle`, and by the caller only while it holds `idle`.
  private var write: ((UnsafeRawBufferPointer) throws -> Void)?
  private var piece: [UInt8] = []
  private var failure: (any Error)?
  private let idle = DispatchSemaphore(value: 1)
  private let queue = DispatchQueue(label: "ModelGraph.snapshot-write")

  /// A pipeline handing pieces to `write`.
  init(_ write: @escaping (UnsafeRawBufferPointer) throws -> Void) {
    self.write = write
  }

  /// Starts writing `bytes` once the piece before is written, and leaves in their place an
  /// empty buffer of the same capacity (the one that piece was in).
  ///
  /// - Throws: The error of an earlier piece's write.
  ///
  /// The last piece is written on the caller's thread, so a file of one piece is written as
  /// without a pipeline.
  func submit(_ bytes: inout [UInt8], last: Bool) throws {
    idle.wait()
    if let failure {
      idle.signal()
      throw failure
    }
    if last {
      defer { idle.signal() }
      try bytes.withUnsafeBytes { try write?($0) }
      return
    }
    swap(&piece, &bytes)
    bytes.removeAll(keepingCapacity: true)
    bytes.reserveCapacity(piece.capacity)
    queue.async { [self] in
      do {
        try piece.withUnsafeBytes { try write?($0) }
      } catch {
        failure = error
      }
      idle.signal()
    }
  }

  /// Waits until every piece is written and lets go of the write function.
  ///
  /// - Throws: The error of a piece's write.
  func finish() throws {
    idle.wait()
    write = nil
    piece = []
    idle.signal()
    if let failure { throw failure }
  }
}
