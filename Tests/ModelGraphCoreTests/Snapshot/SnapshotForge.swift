import ModelGraphCore

/// Takes a valid snapshot file apart into its blocks (following the format article, not the
/// reader's code) and puts it back together with correct checksums, footer and trailer, so a
/// test can plant a hostile value that every checksum accepts.
struct SnapshotForge {
  struct Block {
    var kind: UInt32
    var payload: [UInt8]
  }

  var header: [UInt8]
  var blocks: [Block]

  init(_ file: [UInt8]) {
    header = Array(file[0..<28])
    blocks = []
    var position = 28
    while true {
      let kind = Self.load(UInt32.self, file, position)
      let length = Int(Self.load(UInt64.self, file, position + 4))
      blocks.append(Block(kind: kind, payload: Array(file[position + 12..<position + 12 + length])))
      position += 12 + length + 4
      if kind == 9 { break }
    }
  }

  /// The index of the column block of `entity`, `role` (0 stamps, 1 attribute, 2
  /// relationship) and `slot`.
  func column(entity: UInt32, role: UInt8, slot: UInt32) -> Int {
    blocks.firstIndex {
      $0.kind == 3 && Self.load(UInt32.self, $0.payload, 0) == entity && $0.payload[4] == role
        && Self.load(UInt32.self, $0.payload, 5) == slot
    }!
  }

  /// The index of the table block of `entity`.
  func table(entity: UInt32) -> Int {
    blocks.firstIndex { $0.kind == 2 && Self.load(UInt32.self, $0.payload, 0) == entity }!
  }

  /// Overwrites the little-endian bytes of `value` at `offset` of block `index`'s payload.
  mutating func put<T: FixedWidthInteger>(_ value: T, block index: Int, at offset: Int) {
    withUnsafeBytes(of: value.littleEndian) { raw in
      blocks[index].payload.replaceSubrange(offset..<offset + raw.count, with: raw)
    }
  }

  /// The file offset where block `index` starts.
  func offset(ofBlock index: Int) -> Int {
    28 + blocks[..<index].reduce(0) { $0 + 16 + $1.payload.count }
  }

  /// The file, with every checksum, the footer's offsets and the trailer recomputed.
  func assemble() -> [UInt8] {
    var file = Array(header[0..<24])
    Self.append(CRC32C.checksum(file), to: &file)
    var offsets: [UInt64] = []
    for block in blocks {
      var payload = block.payload
      if block.kind == 9 {
        payload = []
        Self.append(UInt64(offsets.count), to: &payload)
        for offset in offsets { Self.append(offset, to: &payload) }
      }
      offsets.append(UInt64(file.count))
      let start = file.count
      Self.append(block.kind, to: &file)
      Self.append(UInt64(payload.count), to: &file)
      file += payload
      Self.append(CRC32C.checksum(Array(file[start...])), to: &file)
    }
    Self.append(offsets.last!, to: &file)
    file += Array("MGSNEND\n".utf8)
    return file
  }

  static func load<T: FixedWidthInteger>(_: T.Type, _ bytes: [UInt8], _ offset: Int) -> T {
    var value = T.zero
    for index in 0..<MemoryLayout<T>.size {
      value |= T(bytes[offset + index]) << (8 * index)
    }
    return value
  }

  static func append<T: FixedWidthInteger>(_ value: T, to bytes: inout [UInt8]) {
    withUnsafeBytes(of: value.littleEndian) { bytes += $0 }
  }
}
