/// Constants of the journal file format, version 2 (see the "Snapshot file format" article).
///
/// Version 2 records may carry the save's change for the history (``JournalRecord``);
/// version 1 records never do.
///
/// A journal is a 36-byte header (magic, format version, flags, generation, base version number,
/// checksum) followed by records: magic, payload length, checksum, generation, version number,
/// payload. Integers are little-endian; checksums are CRC-32C.
enum JournalFormat {
  /// The first eight bytes of every journal: `MGJRNL\r\n`.
  static let magic: [UInt8] = Array("MGJRNL\r\n".utf8)
  /// The format version this build writes and the newest it reads.
  static let version: UInt32 = 2
  /// Magic, version, flags, generation, base version number and the header's checksum.
  static let headerSize = 8 + 4 + 4 + 8 + 8 + 4
  /// The first four bytes of every record: `MGJR`.
  static let recordMagic: UInt32 = 0x524A_474D
  /// Magic, payload length, checksum, generation and version number.
  static let recordHeaderSize = 4 + 8 + 4 + 8 + 8

  /// The header of a journal of `generation` whose first record follows version `base`.
  static func header(generation: UInt64, base: UInt64) -> [UInt8] {
    var writer = ByteWriter()
    writer.bytes.append(contentsOf: magic)
    writer.append(version)
    writer.append(UInt32(0))
    writer.append(generation)
    writer.append(base)
    writer.append(writer.bytes.withUnsafeBytes { CRC32C.checksum($0) })
    return writer.bytes
  }

  /// The checksum of the record at `start` of `bytes` whose payload is `length` bytes: over the
  /// magic and length, then the generation, number and payload (everything but the checksum).
  static func recordChecksum(_ bytes: UnsafeRawBufferPointer, start: Int, length: Int) -> UInt32 {
    let head = CRC32C.checksum(UnsafeRawBufferPointer(rebasing: bytes[start..<start + 12]))
    return CRC32C.checksum(
      UnsafeRawBufferPointer(rebasing: bytes[start + 16..<start + recordHeaderSize + length]),
      seed: head)
  }

  /// Frames the payload that follows `recordHeaderSize` reserved bytes at `start` of `bytes`
  /// (to its end) as a record of `generation` and version `number`: writes the header over the
  /// reserved bytes.
  static func frameRecord(
    in bytes: inout [UInt8], start: Int, generation: UInt64, number: UInt64
  ) {
    let length = bytes.count - start - recordHeaderSize
    bytes.withUnsafeMutableBytes { raw in
      raw.storeBytes(of: recordMagic.littleEndian, toByteOffset: start, as: UInt32.self)
      raw.storeBytes(of: UInt64(length).littleEndian, toByteOffset: start + 4, as: UInt64.self)
      raw.storeBytes(of: generation.littleEndian, toByteOffset: start + 16, as: UInt64.self)
      raw.storeBytes(of: number.littleEndian, toByteOffset: start + 24, as: UInt64.self)
      let crc = recordChecksum(UnsafeRawBufferPointer(raw), start: start, length: length)
      raw.storeBytes(of: crc.littleEndian, toByteOffset: start + 12, as: UInt32.self)
    }
  }

  /// Frames `payload` as a record of `generation` and version `number`, appended to `bytes`.
  static func appendRecord(
    to bytes: inout [UInt8], generation: UInt64, number: UInt64, payload: [UInt8]
  ) {
    let start = bytes.count
    var writer = ByteWriter()
    swap(&writer.bytes, &bytes)
    writer.append(recordMagic)
    writer.append(UInt64(payload.count))
    writer.append(UInt32(0))
    writer.append(generation)
    writer.append(number)
    writer.bytes.append(contentsOf: payload)
    swap(&writer.bytes, &bytes)
    let crc = bytes.withUnsafeBytes { recordChecksum($0, start: start, length: payload.count) }
    bytes.withUnsafeMutableBytes {
      $0.storeBytes(of: crc.littleEndian, toByteOffset: start + 12, as: UInt32.self)
    }
  }
}
