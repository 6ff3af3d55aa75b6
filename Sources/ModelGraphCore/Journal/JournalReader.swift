/// Reads a journal file's header and frames its records, checking every checksum.
///
/// A record that is cut short or fails its checksum ends the journal: it and everything after
/// it form the dropped tail, which a crash during an append leaves behind. The reader counts
/// the whole records it can still find in that tail, so damage in the middle of a journal is
/// reported as more than one dropped record.
public struct JournalReader {
  /// One whole record.
  public struct Record: Sendable, Hashable {
    /// Where the record starts in the file.
    public var offset: Int
    /// The store version the record's save published.
    public var number: UInt64
    /// The payload's range in the file.
    public var payload: Range<Int>
  }

  /// The generation named in the header.
  public let generation: UInt64
  /// The version number the journal's first record follows.
  public let base: UInt64
  /// The whole records, in file order.
  public let records: [Record]
  /// The length of the header and the whole records: where the next append goes.
  public let validLength: Int
  /// The number of records in the dropped tail (at least 1 when any byte is dropped).
  public let droppedRecords: Int
  /// The number of bytes after the last whole record (0 when they are all zeros: space the
  /// journal wrote ahead).
  public let droppedBytes: Int
  /// The file's length, zeros written ahead included.
  public let fileLength: Int

  /// Reads `bytes`, the contents of the journal at `path`.
  ///
  /// - Throws: ``JournalError`` with code ``JournalError/Code/badHeader`` or
  ///   ``JournalError/Code/unsupportedVersion``; damaged records are not errors.
  public init(_ bytes: UnsafeRawBufferPointer, path: String) throws(JournalError) {
    let size = JournalFormat.headerSize
    guard bytes.count >= size, bytes.prefix(8).elementsEqual(JournalFormat.magic) else {
      let wrongMagic = !bytes.prefix(8).elementsEqual(
        JournalFormat.magic.prefix(min(8, bytes.count)))
      throw JournalError(
        .badHeader, path: path, offset: 0,
        message: wrongMagic
          ? "not a ModelGraph journal (wrong magic bytes)"
          : "the journal is \(bytes.count) bytes, too short for its header")
    }
    func load<T: FixedWidthInteger>(_: T.Type, _ offset: Int) -> T {
      T(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: T.self))
    }
    guard load(UInt32.self, 32) == CRC32C.checksum(UnsafeRawBufferPointer(rebasing: bytes[0..<32]))
    else {
      throw JournalError(
        .badHeader, path: path, offset: 0, message: "checksum mismatch: the header is damaged")
    }
    let version = load(UInt32.self, 8)
    guard version >= 1, version <= JournalFormat.version, load(UInt32.self, 12) == 0 else {
      throw JournalError(
        .unsupportedVersion, path: path, offset: 8,
        message: "journal format version \(version) (flags \(load(UInt32.self, 12))); this "
          + "build reads version 1 to \(JournalFormat.version)")
    }
    generation = load(UInt64.self, 16)
    base = load(UInt64.self, 24)
    var records: [Record] = []
    var position = size
    while let record = Self.record(at: position, in: bytes, generation: generation) {
      records.append(record)
      position = record.payload.upperBound
    }
    self.records = records
    validLength = position
    fileLength = bytes.count
    let tail = UnsafeRawBufferPointer(rebasing: bytes[position...])
    droppedBytes = tail.allSatisfy { $0 == 0 } ? 0 : tail.count
    var dropped = 0
    if droppedBytes > 0 {
      dropped = 1
      var scan = position + 1
      while scan + JournalFormat.recordHeaderSize <= bytes.count {
        if let found = Self.record(at: scan, in: bytes, generation: generation) {
          dropped += 1
          scan = found.payload.upperBound
        } else {
          scan += 1
        }
      }
    }
    droppedRecords = dropped
  }

  /// The whole record at `start`, or `nil` when none is there.
  static func record(at start: Int, in bytes: UnsafeRawBufferPointer, generation: UInt64)
    -> Record?
  {
    guard bytes.count - start >= JournalFormat.recordHeaderSize else { return nil }
    func load<T: FixedWidthInteger>(_: T.Type, _ offset: Int) -> T {
      T(littleEndian: bytes.loadUnaligned(fromByteOffset: start + offset, as: T.self))
    }
    guard load(UInt32.self, 0) == JournalFormat.recordMagic else { return nil }
    let length = load(UInt64.self, 4)
    guard length <= UInt64(bytes.count - start - JournalFormat.recordHeaderSize),
      load(UInt64.self, 16) == generation
    else { return nil }
    let payloadStart = start + JournalFormat.recordHeaderSize
    guard
      load(UInt32.self, 12)
        == JournalFormat.recordChecksum(bytes, start: start, length: Int(length))
    else { return nil }
    return Record(
      offset: start, number: load(UInt64.self, 24),
      payload: payloadStart..<payloadStart + Int(length))
  }
}
