/// Constants of the snapshot file format, version 8 (see the "Snapshot file format" article).
enum SnapshotFormat {
  /// The first eight bytes of every snapshot file: `MGSNAP\r\n`.
  static let magic: [UInt8] = Array("MGSNAP\r\n".utf8)
  /// The last eight bytes of every snapshot file: `MGSNEND\n`.
  static let endMagic: [UInt8] = Array("MGSNEND\n".utf8)
  /// The format version this build writes and the newest it reads.
  static let version: UInt32 = 8
  /// The first format version with a lineage block (generation numbers) before the footer.
  static let lineageVersion: UInt32 = 2
  /// The first format version whose schema block holds each entity's declared indexes and
  /// each attribute's default value.
  static let physicalSchemaVersion: UInt32 = 3
  /// The first format version whose string, `Bool` and relationship columns are written whole
  /// (``ColumnLayout``): strings as a UTF-8 arena plus offsets, keys as raw keys.
  static let columnLayoutVersion: UInt32 = 4
  /// The first format version with a history block (the kept change history) after the
  /// lineage block.
  static let historyVersion: UInt32 = 5
  /// The first format version whose schema block ends with the Codable shapes.
  static let codableShapeVersion: UInt32 = 5
  /// The first format version whose string lengths, relationship keys and `UInt32` columns
  /// (the row stamps) are written as varints (``ColumnLayout``'s compact layouts).
  static let compactLayoutVersion: UInt32 = 6
  /// The first format version whose string columns are written in groups of a chunk's rows,
  /// each front-coded (the prefix a value shares with the one before, then the rest) or
  /// plain, whichever is smaller (``ColumnLayout/encodeFrontCoded(_:count:into:)``).
  static let frontCodedStringVersion: UInt32 = 7
  /// The first format version whose `Double` and `Date` columns are written in blocks of
  /// decimal integers packed at a fixed bit width where that is exact (``PackedNumberLayout``).
  static let packedNumberVersion: UInt32 = 7
  /// The first format version whose schema block holds each attribute's integer width
  /// (``AttributeDescription/integerWidth``); earlier files declare none (64 bits).
  static let integerWidthVersion: UInt32 = 8
  /// Magic, version, flags, the store version number and the header's checksum.
  static let headerSize = 8 + 4 + 4 + 8 + 4
  /// Kind, payload length, and (after the payload) the checksum.
  static let blockOverhead = 4 + 8 + 4
  /// The footer offset and the end magic.
  static let trailerSize = 8 + 8
  /// The deepest nesting of array types a schema may declare.
  static let maximumTypeDepth = 16

  /// The kinds of block.
  enum BlockKind: UInt32 {
    case schema = 1
    case table = 2
    case column = 3
    case lineage = 4
    case history = 5
    case footer = 9
  }

  /// Which column of a table a column block holds.
  enum ColumnRole: UInt8 {
    case stamps = 0
    case attribute = 1
    case relationship = 2
  }
}
