import Foundation

/// Reads a snapshot file on a second thread, a piece at a time, and checks each block's
/// checksum as soon as the block is in, while the calling thread decodes what was read before.
///
/// The decoder waits (``wait(through:)``) for the bytes it is about to read, and skips the
/// checksum of a block the reader already found whole (``isVerified(through:)``); it checks
/// any other block itself, so a damaged file gives the same error as a file read whole.
final class SnapshotReadAhead: @unchecked Sendable {
  // @unchecked Sendable: the counters are reached only while `condition` is locked; the reader
  // thread writes only the bytes past `filled`, the decoder reads only the bytes before it.

  /// The whole file's bytes, as far as ``wait(through:)`` says they are read.
  let buffer: UnsafeMutableRawBufferPointer
  private let io: any FileIO
  private let descriptor: Int32
  private let path: String
  private let condition = NSCondition()
  private var filled = 0
  private var verified = 0
  private var failure: SnapshotError?
  private var cancelled = false
  private var done = false
  /// The bytes read at a time.
  static let pieceSize = 4 << 20

  /// Starts reading the `size` bytes of the file open as `descriptor`.
  private init(io: any FileIO, descriptor: Int32, size: Int, path: String) {
    self.io = io
    self.descriptor = descriptor
    self.path = path
    buffer = .allocate(byteCount: max(size, 1), alignment: 16)
    Thread.detachNewThread { [self] in run(size: size) }
  }

  deinit { buffer.deallocate() }

  /// Decodes the snapshot file at `path`, reading it on a second thread meanwhile.
  ///
  /// - Throws: ``SnapshotError``, as ``SnapshotReader/decodeWithLineage(_:path:)``, or with
  ///   code ``SnapshotError/Code/io`` when reading fails or the file changes while it is read.
  static func decode(path: String, io: any FileIO) throws -> (
    version: StoreVersion, lineage: SnapshotLineage
  ) {
    let (descriptor, size) = try io.openForReading(path)
    defer { try? io.close(descriptor) }
    let ahead = SnapshotReadAhead(io: io, descriptor: descriptor, size: size, path: path)
    let decoded: (version: StoreVersion, lineage: SnapshotLineage)
    do {
      decoded = try SnapshotReader.decode(
        UnsafeRawBufferPointer(rebasing: ahead.buffer[..<size]), path: path, ahead: ahead)
    } catch {
      try? ahead.stop()
      throw error
    }
    try ahead.stop()
    return decoded
  }

  /// Returns once the first `end` bytes are read.
  ///
  /// - Throws: ``SnapshotError`` when reading failed or the file ended first.
  func wait(through end: Int) throws {
    condition.lock()
    defer { condition.unlock() }
    while filled < end {
      if let failure { throw failure }
      if done {
        throw SnapshotError(
          .truncated, path: path, section: "read", offset: filled,
          message: "the file ended at \(filled) bytes while it was read")
      }
      condition.wait()
    }
  }

  /// Whether the blocks from the header to `end` (a block's end) were checked.
  func isVerified(through end: Int) -> Bool {
    condition.withLock { end <= verified }
  }

  /// Ends the reading (when it is not done yet) and waits for the reader thread.
  ///
  /// - Throws: ``SnapshotError`` when the file was longer than its size when it was opened.
  func stop() throws {
    condition.lock()
    defer { condition.unlock() }
    cancelled = true
    while !done { condition.wait() }
    if let failure { throw failure }
  }

  private func run(size: Int) {
    var failed: SnapshotError?
    var position = 0
    var checked = SnapshotFormat.headerSize
    var checking = true
    while position < size {
      if condition.withLock({ cancelled }) { break }
      let piece = UnsafeMutableRawBufferPointer(
        rebasing: buffer[position..<min(size, position + Self.pieceSize)])
      let count: Int
      do {
        count = try io.read(descriptor, into: piece)
      } catch {
        failed = SnapshotError(.io, path: path, section: "read", message: "\(error)")
        break
      }
      guard count > 0 else {
        failed = SnapshotError(
          .truncated, path: path, section: "read", offset: position,
          message: "the file ended at \(position) bytes while it was read (it was \(size))")
        break
      }
      position += count
      if checking { checking = check(from: &checked, upTo: position, size: size) }
      condition.withLock {
        filled = position
        verified = checked
        condition.broadcast()
      }
    }
    if failed == nil, position == size, !condition.withLock({ cancelled }) {
      var extra: UInt8 = 0
      let more = (try? withUnsafeMutableBytes(of: &extra) { try io.read(descriptor, into: $0) })
      if let more, more > 0 {
        failed = SnapshotError(
          .io, path: path, section: "read", offset: size,
          message: "the file grew past \(size) bytes while it was read")
      }
    }
    condition.withLock {
      failure = failed
      done = true
      condition.broadcast()
    }
  }

  /// Checks the checksums of the whole blocks between `checked` and `end`, moving `checked`
  /// past each good one.
  ///
  /// - Returns: `false` when a block is damaged or does not fit the file (the decoder then
  ///   checks the rest itself and reports it).
  private func check(from checked: inout Int, upTo end: Int, size: Int) -> Bool {
    let bytes = UnsafeRawBufferPointer(buffer)
    while checked + 12 <= end {
      let length = UInt64(
        littleEndian: bytes.loadUnaligned(fromByteOffset: checked + 4, as: UInt64.self))
      guard size - checked >= 16, length <= UInt64(size - checked - 16) else { return false }
      let payloadEnd = checked + 12 + Int(length)
      guard payloadEnd + 4 <= end else { return true }
      let stored = UInt32(
        littleEndian: bytes.loadUnaligned(fromByteOffset: payloadEnd, as: UInt32.self))
      let computed = CRC32C.checksum(UnsafeRawBufferPointer(rebasing: bytes[checked..<payloadEnd]))
      guard stored == computed else { return false }
      checked = payloadEnd + 4
    }
    return true
  }
}
