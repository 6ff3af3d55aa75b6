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

  /// The coding of keys seen one by one in column order, and the bytes their section takes
  /// in it: one pass over the keys instead of one to fit the coding and one to size it.
  struct Fitting {
    private var first: UInt32?
    private var largest: UInt32 = 0
    private var single = true
    private var generation: UInt32?
    private var mixed = false
    private var present = 0
    private var leadBytes = 0
    private var previous: UInt32 = 0

    /// Counts `key` (`nil`: the absent key), the key after those added before.
    @inline(__always)
    mutating func add(_ key: ObjectKey?) {
      leadBytes &+= Varint.size(CompactKeyCoding.lead(key, previous: previous))
      guard let key else { return }
      previous = key.row
      present &+= 1
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

    /// Counts each of `keys` (none absent), in order.
    @inline(__always)
    mutating func add(_ keys: UnsafeBufferPointer<ObjectKey>) {
      for key in keys { add(key) }
    }

    /// The coding that fits the keys added most compactly.
    var coding: CompactKeyCoding {
      CompactKeyCoding(
        entityWidth: single ? 0 : largest < 0xFF ? 1 : largest < 0xFFFF ? 2 : 4,
        entity: first ?? 0, sharedGeneration: mixed ? nil : (generation ?? 0))
    }

    /// The bytes of the keys added, in ``coding``.
    var sectionSize: Int {
      let coding = coding
      return leadBytes &+ present
        &* (coding.entityWidth &+ (coding.sharedGeneration == nil ? 4 : 0))
    }
  }

  private init(entityWidth: Int, entity: UInt32, sharedGeneration: UInt32?) {
    self.entityWidth = entityWidth
    self.entity = entity
    self.sharedGeneration = sharedGeneration
  }

  /// Writes the header.
  func writeHeader(into writer: inout ByteWriter) {
    writer.append(UInt8(entityWidth))
    if entityWidth == 0 { writer.append(entity) }
    KeyCoding.writeGeneration(sharedGeneration, into: &writer)
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
    sharedGeneration = try KeyCoding.readGeneration(from: &reader)
  }

  /// The varint that leads `key`, the row before it being `previous`.
  @inline(__always)
  static func lead(_ key: ObjectKey?, previous: UInt32) -> UInt64 {
    guard let key else { return 0 }
    return Varint.zigzag(Int64(key.row) &- Int64(previous)) &+ 1
  }

  /// Writes `key` at `offset` of `out` (the bytes ``Fitting`` counts for it) and returns the offset
  /// after it; moves `previous` to its row unless it is absent.
  @inline(__always)
  func store(
    _ key: ObjectKey?, previous: inout UInt32, into out: UnsafeMutableRawBufferPointer,
    at offset: Int
  ) -> Int {
    var offset = Varint.store(Self.lead(key, previous: previous), into: out, at: offset)
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

  /// Writes each of `keys` (none absent) as ``store(_:previous:into:at:)`` does, and returns the
  /// offset after the last; a coding that is ``isRowOnly`` writes each key's varint alone, in
  /// a loop of its own.
  @inline(__always)
  func store(
    _ keys: UnsafeBufferPointer<ObjectKey>, previous: inout UInt32,
    into out: UnsafeMutableRawBufferPointer, at offset: Int
  ) -> Int {
    var offset = offset
    if isRowOnly {
      for key in keys {
        offset = Varint.store(Self.lead(key, previous: previous), into: out, at: offset)
        previous = key.row
      }
      return offset
    }
    for key in keys { offset = store(key, previous: &previous, into: out, at: offset) }
    return offset
  }

  /// Writes each of `keys` (`nil`: the absent key) as ``store(_:previous:into:at:)`` does, and
  /// returns the offset after the last; in a loop of its own when the keys share a generation
  /// and their entity takes at most a byte (a to-one column's common cases).
  @inline(__always)
  func store(
    _ keys: UnsafeBufferPointer<ObjectKey?>, previous: inout UInt32,
    into out: UnsafeMutableRawBufferPointer, at offset: Int
  ) -> Int {
    var offset = offset
    if sharedGeneration != nil, entityWidth <= 1 {
      let withEntity = entityWidth == 1
      for key in keys {
        offset = Varint.store(Self.lead(key, previous: previous), into: out, at: offset)
        guard let key else { continue }
        previous = key.row
        if withEntity {
          out[offset] = UInt8(truncatingIfNeeded: key.entity)
          offset &+= 1
        }
      }
      return offset
    }
    for key in keys { offset = store(key, previous: &previous, into: out, at: offset) }
    return offset
  }

  /// Whether every key names ``entity`` with the shared generation: a key is then its varint
  /// alone (see ``loadRow(from:previous:)``).
  var isRowOnly: Bool { entityWidth == 0 && sharedGeneration != nil }

  /// The row that a key led by `lead` (not 0, which is the absent key) names, the row before
  /// it being `previous`; `nil` when that row is outside `UInt32`.
  @inline(__always)
  static func row(lead: UInt64, previous: UInt32) -> UInt32? {
    let row = Int64(previous) &+ Varint.unzigzag(lead &- 1)
    guard row >= 0, row <= Int64(UInt32.max) else { return nil }
    return UInt32(truncatingIfNeeded: row)
  }

  /// The next key's row in a column where ``isRowOnly``: `-1` for the absent key, `nil` when
  /// the bytes are damaged. Moves `previous` to the row unless the key is absent.
  @inline(__always)
  static func loadRow(from cursor: inout VarintCursor, previous: inout UInt32) -> Int64? {
    guard let lead = cursor.next() else { return nil }
    if lead == 0 { return -1 }
    guard let row = row(lead: lead, previous: previous) else { return nil }
    previous = row
    return Int64(row)
  }

  /// The next key of `cursor`: `.some(nil)` for the absent key, `nil` when the bytes are
  /// damaged (the section ends inside the key, or its row is outside `UInt32`). Moves
  /// `previous` to its row unless it is absent.
  @inline(__always)
  func load(from cursor: inout VarintCursor, previous: inout UInt32) -> ObjectKey?? {
    guard let lead = cursor.next() else { return nil }
    if lead == 0 { return .some(nil) }
    guard let row = Self.row(lead: lead, previous: previous) else { return nil }
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
    previous = row
    var key = ObjectKey.placeholder
    key.entity = entity
    key.row = row
    key.generation = generation
    return .some(key)
  }
}
