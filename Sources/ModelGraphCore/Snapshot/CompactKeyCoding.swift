/// How format 6 writes the keys of one relationship column: each key's row as the difference
/// from the row of the key before it in the column (a varint), so that the keys of children made
/// one after another take one or two bytes instead of five or more.
///
/// A column's coding header is its entity width (1 byte: 0, 1, 2 or 4; 0 when every key names
/// the one entity that follows as 4 bytes), then the generation flag and generation as in
/// ``KeyCoding``. In the key section, each key is a varint `v`: 0 for the absent key; otherwise
/// `zigzag(row - previous row) + 1`, followed by the entity in the entity width (none for
/// width 0) and, unless the generation is shared, the generation in 4 bytes. The previous row
/// starts at 0 and moves with each key that is not absent.
struct CompactKeyCoding {
  /// The bytes of each key's entity index: 0 (the column's ``entity`` for every key), 1, 2 or 4.
  var entityWidth: Int
  /// The entity every key names, when ``entityWidth`` is 0.
  var entity: UInt32
  /// The generation every key has, when they share one.
  var sharedGeneration: UInt32?

  /// The coding that fits `keys` (absent keys aside) most compactly.
  init(fitting keys: (_ visit: (ObjectKey) -> Void) -> Void) {
    var first: UInt32?
    var largest: UInt32 = 0
    var single = true
    var generation: UInt32?
    var mixed = false
    keys { key in
      largest = max(largest, key.entity)
      if let first {
        if first != key.entity { single = false }
      } else {
        first = key.entity
      }
      if generation == nil {
        generation = key.generation
      } else if generation != key.generation {
        mixed = true
      }
    }
    entity = first ?? 0
    entityWidth = single ? 0 : largest < 0xFF ? 1 : largest < 0xFFFF ? 2 : 4
    sharedGeneration = mixed ? nil : (generation ?? 0)
  }

  /// Writes the header.
  func writeHeader(into writer: inout ByteWriter) {
    writer.append(UInt8(entityWidth))
    if entityWidth == 0 { writer.append(entity) }
    if let sharedGeneration {
      writer.append(UInt8(1))
      writer.append(sharedGeneration)
    } else {
      writer.append(UInt8(0))
    }
  }

  /// Reads a header.
  init(from reader: inout ByteReader) throws {
    let start = reader.position
    entityWidth = Int(try reader.read(UInt8.self))
    guard [0, 1, 2, 4].contains(entityWidth) else {
      throw reader.error(
        "keys with \(entityWidth)-byte entities; 0, 1, 2 or 4 expected", at: start)
    }
    entity = entityWidth == 0 ? try reader.read(UInt32.self) : 0
    let flagAt = reader.position
    switch try reader.read(UInt8.self) {
    case 0: sharedGeneration = nil
    case 1: sharedGeneration = try reader.read(UInt32.self)
    case let flag: throw reader.error("\(flag) is not a generation flag", at: flagAt)
    }
  }

  /// The varint that leads `key`, the row before it being `previous`.
  @inline(__always)
  private func lead(_ key: ObjectKey?, previous: UInt32) -> UInt64 {
    guard let key else { return 0 }
    return Varint.zigzag(Int64(key.row) &- Int64(previous)) &+ 1
  }

  /// The bytes `key` takes after a key in row `previous`.
  @inline(__always)
  func size(of key: ObjectKey?, previous: UInt32) -> Int {
    guard key != nil else { return 1 }
    return Varint.size(lead(key, previous: previous)) &+ entityWidth
      &+ (sharedGeneration == nil ? 4 : 0)
  }

  /// Writes `key` at `offset` of `out` (``size(of:previous:)`` bytes) and returns the offset
  /// after it; moves `previous` to its row unless it is absent.
  @inline(__always)
  func store(
    _ key: ObjectKey?, previous: inout UInt32, into out: UnsafeMutableRawBufferPointer,
    at offset: Int
  ) -> Int {
    var offset = Varint.store(lead(key, previous: previous), into: out, at: offset)
    guard let key else { return offset }
    previous = key.row
    switch entityWidth {
    case 0: break
    case 1: out[offset] = UInt8(truncatingIfNeeded: key.entity)
    case 2:
      out.storeBytes(
        of: UInt16(truncatingIfNeeded: key.entity).littleEndian, toByteOffset: offset,
        as: UInt16.self)
    default: out.storeBytes(of: key.entity.littleEndian, toByteOffset: offset, as: UInt32.self)
    }
    offset &+= entityWidth
    if sharedGeneration == nil {
      out.storeBytes(of: key.generation.littleEndian, toByteOffset: offset, as: UInt32.self)
      offset &+= 4
    }
    return offset
  }

  /// Whether every key names ``entity`` with the shared generation: a key is then its varint
  /// alone (see ``loadRow(from:previous:)``).
  var isRowOnly: Bool { entityWidth == 0 && sharedGeneration != nil }

  /// The next key's row in a column where ``isRowOnly``: `-1` for the absent key, `nil` when
  /// the bytes are damaged. Moves `previous` to the row unless the key is absent.
  @inline(__always)
  static func loadRow(from cursor: inout VarintCursor, previous: inout UInt32) -> Int64? {
    guard let lead = cursor.next() else { return nil }
    if lead == 0 { return -1 }
    let row = Int64(previous) &+ Varint.unzigzag(lead &- 1)
    guard row >= 0, row <= Int64(UInt32.max) else { return nil }
    previous = UInt32(truncatingIfNeeded: row)
    return row
  }

  /// The next key of `cursor`: `.some(nil)` for the absent key, `nil` when the bytes are
  /// damaged (the section ends inside the key, or its row is outside `UInt32`). Moves
  /// `previous` to its row unless it is absent.
  @inline(__always)
  func load(from cursor: inout VarintCursor, previous: inout UInt32) -> ObjectKey?? {
    guard let lead = cursor.next() else { return nil }
    if lead == 0 { return .some(nil) }
    let row = Int64(previous) &+ Varint.unzigzag(lead &- 1)
    guard row >= 0, row <= Int64(UInt32.max) else { return nil }
    let entity: UInt32
    switch entityWidth {
    case 0: entity = self.entity
    case 1:
      guard let byte = cursor.next(UInt8.self) else { return nil }
      entity = UInt32(byte)
    case 2:
      guard let half = cursor.next(UInt16.self) else { return nil }
      entity = UInt32(half)
    default:
      guard let word = cursor.next(UInt32.self) else { return nil }
      entity = word
    }
    let generation: UInt32
    if let sharedGeneration {
      generation = sharedGeneration
    } else {
      guard let word = cursor.next(UInt32.self) else { return nil }
      generation = word
    }
    previous = UInt32(row)
    var key = ObjectKey.placeholder
    key.entity = entity
    key.row = UInt32(row)
    key.generation = generation
    return .some(key)
  }
}
