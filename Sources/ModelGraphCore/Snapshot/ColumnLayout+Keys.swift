/// How the keys of one relationship column are written in format version 4: the entity index
/// in the fewest bytes that hold every entity the column names (1, 2 or 4), the row in 4 bytes,
/// and the generation in 4 bytes, or once for the column when every key has the same one.
///
/// A column's coding is a 2-byte header (entity width, then 1 when the generation is shared,
/// followed by that generation in 4 bytes, or 0). An absent to-one key is written with every
/// byte `0xFF`; its entity field (all ones) names no entity the column can hold.
struct KeyCoding {
  /// The bytes of the entity index: 1, 2 or 4.
  var entityWidth: Int
  /// The generation every key has, when they share one.
  var sharedGeneration: UInt32?

  /// The fewest bytes a key takes.
  static let minimumSize = 1 + 4

  /// The bytes of one key.
  var keySize: Int { entityWidth + 4 + (sharedGeneration == nil ? 4 : 0) }

  /// The all-ones entity field of this width.
  private var absentEntity: UInt32 { entityWidth == 4 ? UInt32.max : (1 << (entityWidth * 8)) - 1 }

  /// The coding that fits `keys` (absent keys aside) most compactly.
  init(fitting keys: (_ visit: (ObjectKey) -> Void) -> Void) {
    var largest: UInt32 = 0
    var generation: UInt32?
    var mixed = false
    keys { key in
      largest = max(largest, key.entity)
      if generation == nil {
        generation = key.generation
      } else if generation != key.generation {
        mixed = true
      }
    }
    entityWidth = largest < 0xFF ? 1 : largest < 0xFFFF ? 2 : 4
    sharedGeneration = mixed ? nil : (generation ?? 0)
  }

  /// Writes the header.
  func writeHeader(into writer: inout ByteWriter) {
    writer.append(UInt8(entityWidth))
    Self.writeGeneration(sharedGeneration, into: &writer)
  }

  /// Writes the generation flag (1 byte) and, when `shared` is not `nil`, the generation.
  static func writeGeneration(_ shared: UInt32?, into writer: inout ByteWriter) {
    if let shared {
      writer.append(UInt8(1))
      writer.append(shared)
    } else {
      writer.append(UInt8(0))
    }
  }

  /// Reads what ``writeGeneration(_:into:)`` wrote: the shared generation, or `nil`.
  static func readGeneration(from reader: inout ByteReader) throws -> UInt32? {
    let flagAt = reader.position
    switch try reader.read(UInt8.self) {
    case 0: return nil
    case 1: return try reader.read(UInt32.self)
    case let flag: throw reader.error("\(flag) is not a generation flag", at: flagAt)
    }
  }

  /// Reads a header.
  init(from reader: inout ByteReader) throws {
    let start = reader.position
    entityWidth = Int(try reader.read(UInt8.self))
    guard entityWidth == 1 || entityWidth == 2 || entityWidth == 4 else {
      throw reader.error("keys with \(entityWidth)-byte entities; 1, 2 or 4 expected", at: start)
    }
    sharedGeneration = try Self.readGeneration(from: &reader)
  }

  /// Stores `key` (`nil`: the absent key) at `offset` of `bytes`.
  @inline(__always)
  func store(_ key: ObjectKey?, into bytes: UnsafeMutableRawBufferPointer, at offset: Int) {
    let entity = key?.entity ?? absentEntity
    switch entityWidth {
    case 1:
      bytes.storeBytes(of: UInt8(truncatingIfNeeded: entity), toByteOffset: offset, as: UInt8.self)
    case 2:
      bytes.storeBytes(
        of: UInt16(truncatingIfNeeded: entity).littleEndian, toByteOffset: offset, as: UInt16.self)
    default: bytes.storeBytes(of: entity.littleEndian, toByteOffset: offset, as: UInt32.self)
    }
    bytes.storeBytes(
      of: (key?.row ?? UInt32.max).littleEndian, toByteOffset: offset + entityWidth, as: UInt32.self
    )
    if sharedGeneration == nil {
      bytes.storeBytes(
        of: (key?.generation ?? UInt32.max).littleEndian, toByteOffset: offset + entityWidth + 4,
        as: UInt32.self)
    }
  }

  /// The key at `offset` of `bytes`: `.some(nil)` for the absent key, `nil` when the entity
  /// is all ones but the rest is not.
  @inline(__always)
  func load(from bytes: UnsafeRawBufferPointer, at offset: Int) -> ObjectKey?? {
    let entity: UInt32
    switch entityWidth {
    case 1: entity = UInt32(bytes[offset])
    case 2:
      entity = UInt32(
        UInt16(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt16.self)))
    default:
      entity = UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt32.self))
    }
    let row = UInt32(
      littleEndian: bytes.loadUnaligned(fromByteOffset: offset + entityWidth, as: UInt32.self))
    let generation =
      sharedGeneration
      ?? UInt32(
        littleEndian: bytes.loadUnaligned(
          fromByteOffset: offset + entityWidth + 4, as: UInt32.self))
    if entity == absentEntity {
      let whole = row == UInt32.max && (sharedGeneration != nil || generation == UInt32.max)
      return whole ? .some(nil) : nil
    }
    var key = ObjectKey.placeholder
    key.entity = entity
    key.row = row
    key.generation = generation
    return .some(key)
  }
}

extension ColumnLayout {
  /// The coding header, then a key a row (``KeyCoding``).
  static func encodeKeys(_ column: Column<ObjectKey?>, into writer: inout ByteWriter) {
    let coding = KeyCoding { visit in
      column.forEachChunk { _, values in
        for value in values { if let value { visit(value) } }
      }
    }
    coding.writeHeader(into: &writer)
    writer.appendUninitialized(column.count * coding.keySize) { out in
      var position = 0
      column.forEachChunk { _, values in
        for value in values {
          coding.store(value, into: out, at: position)
          position += coding.keySize
        }
      }
    }
  }

  static func decodeKeys(_ column: Column<ObjectKey?>, count: Int, from reader: inout ByteReader)
    throws
  {
    let coding = try KeyCoding(from: &reader)
    let start = reader.position
    let bytes = try reader.readBytes(count * coding.keySize)
    var damaged: Int?
    column.load(count: count) { first, values, rows in
      for index in 0..<rows {
        let key = coding.load(from: bytes, at: (first + index) * coding.keySize)
        if key == nil, damaged == nil { damaged = first + index }
        (values + index).initialize(to: key ?? nil)
      }
    }
    if let row = damaged {
      throw reader.error(
        "row \(row) holds a damaged absent key", at: start + row * coding.keySize)
    }
  }

  /// Each row's number of keys (4 bytes), the total number of keys (8 bytes), the coding
  /// header, then every key in row order (``KeyCoding``; none is absent).
  static func encodeKeyLists(_ column: KeyListColumn, into writer: inout ByteWriter) {
    var total = 0
    writer.appendUninitialized(column.count * 4) { out in
      for row in 0..<column.count {
        let count = column.keyCount(at: row)
        // A list of 4 G keys would take 48 GB of memory: the count always fits.
        out.storeBytes(
          of: UInt32(truncatingIfNeeded: count).littleEndian, toByteOffset: row * 4,
          as: UInt32.self)
        total += count
      }
    }
    writer.append(UInt64(total))
    let coding = KeyCoding { visit in
      for row in 0..<column.count { column.withKeys(at: row) { for key in $0 { visit(key) } } }
    }
    coding.writeHeader(into: &writer)
    writer.appendUninitialized(total * coding.keySize) { out in
      var position = 0
      for row in 0..<column.count {
        column.withKeys(at: row) { keys in
          for key in keys {
            coding.store(key, into: out, at: position)
            position += coding.keySize
          }
        }
      }
    }
  }

  /// Reads what ``encodeKeyLists(_:into:)`` wrote into `column`, grown to `count` empty rows.
  static func decodeKeyLists(_ column: KeyListColumn, count: Int, from reader: inout ByteReader)
    throws
  {
    let lengths = try reader.readBytes(count * 4)
    let totalStart = reader.position
    let total = try reader.readCount(minimumSize: KeyCoding.minimumSize)
    let coding = try KeyCoding(from: &reader)
    let keysStart = reader.position
    let keys = try reader.readBytes(total * coding.keySize)
    var sum = 0
    for row in 0..<count {
      sum += Int(
        UInt32(littleEndian: lengths.loadUnaligned(fromByteOffset: row * 4, as: UInt32.self)))
    }
    guard sum == total else {
      throw reader.error("the rows hold \(sum) keys, the column says \(total)", at: totalStart)
    }
    @inline(__always) func length(_ row: Int) -> Int {
      Int(UInt32(littleEndian: lengths.loadUnaligned(fromByteOffset: row * 4, as: UInt32.self)))
    }
    // Chunk by chunk, the keys decoded straight into the chunk's arena (no list per row).
    let keySize = coding.keySize
    let shift = AnyColumn.chunkShift
    var row = 0
    var position = 0
    while row < count {
      let first = row
      let rows = min(count - row, 1 << shift)
      let start = position
      var chunkTotal = 0
      for offset in 0..<rows { chunkTotal += length(first + offset) }
      let chunkKeys = chunkTotal
      let loaded = column.chunkForLoading(first >> shift).load(total: chunkKeys) { spans, out in
        var next = 0
        for offset in 0..<rows {
          let length = length(first + offset)
          spans[offset] =
            length == 0
            ? KeySpan(start: 0, count: 0)
            : KeySpan(start: UInt32(truncatingIfNeeded: next), count: UInt32(length))
          next += length
        }
        for index in 0..<chunkKeys {
          guard case .some(.some(let key)) = coding.load(from: keys, at: start + index * keySize)
          else { return false }
          (out + index).initialize(to: key)
        }
        return true
      }
      if !loaded {
        // Found again, row by row, for the error.
        var at = start
        for offset in 0..<rows {
          for _ in 0..<length(first + offset) {
            guard case .some(.some) = coding.load(from: keys, at: at) else {
              throw reader.error(
                "row \(first + offset) holds an absent key", at: keysStart + at)
            }
            at += keySize
          }
        }
        preconditionFailure("a chunk's keys failed to load, but none is absent")
      }
      position += chunkKeys * keySize
      row += rows
    }
  }
}
