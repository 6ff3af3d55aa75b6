import Foundation

/// Encodes a snapshot on a second thread while the calling thread checksums and writes the
/// pieces made before (so every system call stays on the calling thread).
///
/// At most one piece waits while another is written; the encoder gets back the buffer of a
/// piece written before, so two buffers go round.
final class SnapshotPipe: @unchecked Sendable {
  // @unchecked Sendable: every mutable property is reached only while `condition` is locked,
  // and a piece's bytes belong to one thread at a time (the encoder until it submits them).

  /// A run of whole blocks, and where each block's checksum goes: the block's bytes are
  /// `range`, its checksum the 4 bytes after them.
  private struct Piece {
    var bytes: [UInt8]
    var blocks: [Range<Int>]
  }

  /// Thrown to the encoder when the writing stopped on an error.
  private struct Stopped: Error {}

  private let condition = NSCondition()
  private var queued: Piece?
  private var spare: [UInt8]?
  private var stopped = false
  private var result: Result<ByteWriter, any Error>?

  /// Runs `encode` on a second thread, hands each piece it submits (``submit(_:blocks:)``)
  /// with its checksums filled in to `write` on this thread, in order, and returns what
  /// `encode` returned.
  ///
  /// - Throws: What `write` or `encode` throws; the encoder is stopped and waited for first.
  static func run(
    encode: @escaping @Sendable (SnapshotPipe) throws -> ByteWriter,
    write: (UnsafeRawBufferPointer) throws -> Void
  ) throws -> ByteWriter {
    let pipe = SnapshotPipe()
    Thread.detachNewThread {
      let outcome = Result { try encode(pipe) }
      pipe.condition.withLock {
        pipe.result = outcome
        pipe.condition.broadcast()
      }
    }
    do {
      while var piece = try pipe.next() {
        piece.bytes.withUnsafeMutableBytes { raw in
          for block in piece.blocks {
            let crc = CRC32C.checksum(UnsafeRawBufferPointer(rebasing: raw[block]))
            raw.storeBytes(of: crc.littleEndian, toByteOffset: block.upperBound, as: UInt32.self)
          }
        }
        try piece.bytes.withUnsafeBytes { try write($0) }
        piece.bytes.removeAll(keepingCapacity: true)
        pipe.condition.withLock { pipe.spare = piece.bytes }
      }
    } catch {
      pipe.condition.withLock {
        pipe.stopped = true
        pipe.condition.broadcast()
        while pipe.result == nil { pipe.condition.wait() }
      }
      throw error
    }
    return try pipe.condition.withLock { pipe.result! }.get()
  }

  /// The next piece to write, or `nil` once the encoder finished and every piece was taken.
  private func next() throws -> Piece? {
    condition.lock()
    defer { condition.unlock() }
    while queued == nil, result == nil { condition.wait() }
    if let piece = queued.take() {
      condition.broadcast()
      return piece
    }
    _ = try result!.get()
    return nil
  }

  /// Hands `bytes` (whole blocks, with their checksums to fill in at `blocks`) to the writing
  /// thread and leaves `bytes` empty (an earlier buffer with its capacity, when one is free).
  ///
  /// - Throws: When the writing stopped on an error.
  func submit(_ bytes: inout [UInt8], blocks: [Range<Int>]) throws {
    condition.lock()
    defer { condition.unlock() }
    while queued != nil, !stopped { condition.wait() }
    if stopped { throw Stopped() }
    queued = Piece(bytes: bytes, blocks: blocks)
    bytes = spare.take() ?? []
    condition.broadcast()
  }
}
