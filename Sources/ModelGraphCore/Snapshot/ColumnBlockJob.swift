import Dispatch
import Synchronization

/// One column block of a snapshot being decoded on several threads: its checksum is verified,
/// then its payload decoded into its (new, empty) column, which no other job touches.
struct ColumnBlockJob: @unchecked Sendable {
  // @unchecked Sendable: the reader points into the file's bytes, which stay mapped and
  // unchanged while the jobs run; each job's column is written by that job alone.

  var block: ByteReader
  var checked: ChecksummedRange
  var column: AnyColumn
  var entity: Int
  var role: SnapshotFormat.ColumnRole
  var slot: Int
  var rowCount: Int
  /// The file's format version.
  var format: UInt32
  /// For a relationship column, the row count of each table its keys may name (0 for the
  /// others): the job then checks every key against it.
  var keyLimits: [UInt32]?

  /// Verifies and decodes the block into the column.
  func run(_ bytes: UnsafeRawBufferPointer) throws {
    try checked.verify(bytes, path: block.path, section: block.section)
    var block = block
    guard try block.read(UInt32.self) == UInt32(entity),
      try block.read(UInt8.self) == role.rawValue, try block.read(UInt32.self) == UInt32(slot)
    else { throw block.error("column block of another column") }
    try block.expectRowCount(rowCount)
    try column.decode(from: &block, format: format)
    try block.expectEnd()
    guard column.count == rowCount else {
      throw block.error("column holds \(column.count) rows, the table \(rowCount)")
    }
    if let keyLimits {
      try SnapshotReader.validateKeys(of: column, limits: keyLimits) { key, row in
        block.error("row \(row) points at \(key), which names no row its column may hold")
      }
    }
  }

  /// Runs `jobs` on as many threads as the machine offers, the largest blocks first.
  ///
  /// - Throws: The error of some failed job (which one is not specified: the caller decodes
  ///   the file again in order to report the first).
  static func run(_ jobs: [ColumnBlockJob], bytes: UnsafeRawBufferPointer) throws {
    let ordered = jobs.sorted { $0.block.remaining > $1.block.remaining }
    let failure = Mutex<(any Error)?>(nil)
    let file = FileBytes(bytes: bytes)
    DispatchQueue.concurrentPerform(iterations: ordered.count) { index in
      do {
        try ordered[index].run(file.bytes)
      } catch {
        failure.withLock { $0 = $0 ?? error }
      }
    }
    if let error = failure.withLock({ $0 }) { throw error }
  }
}

/// The bytes of a file that several jobs read at once and nothing writes.
private struct FileBytes: @unchecked Sendable {
  let bytes: UnsafeRawBufferPointer
}
