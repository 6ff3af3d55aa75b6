import Foundation
import Testing

@testable import ModelGraphCore

/// Format 7's packed `Double` and `Date` columns: values read back bit for bit, whether their
/// blocks are packed (whole seconds, cents, negative numbers) or raw (a value of more digits,
/// `-0.0`, NaN, infinities, huge magnitudes), at every exponent and at wide bit widths.
@Suite("Snapshot packed numbers (format 7)")
struct PackedNumberLayoutTests {
  let format = SnapshotFormat.packedNumberVersion
  let block = PackedNumberLayout.blockRows

  /// A block as the bytes say: its tag, and for a packed block its exponent and width.
  struct Block: Equatable {
    var tag: UInt8
    var exponent = 0
    var width = 0
  }

  /// `values` in a new column of `Value`, written in format 7 and read back: the values read
  /// and the bytes.
  private func encodeAndDecode<Value: ColumnValue>(_ values: [Value]) throws -> (
    [Value], [UInt8]
  ) {
    let column = Column<Value>()
    column.grow(to: values.count)
    for (row, value) in values.enumerated() { column[row] = value }
    var writer = ByteWriter()
    column.encode(into: &writer, format: format)
    let bytes = writer.bytes
    let decoded = Column<Value>()
    try bytes.withUnsafeBytes { raw in
      var reader = ByteReader(raw, fileOffset: 0, path: "test", section: "column")
      try decoded.decode(from: &reader, format: format)
      #expect(reader.isAtEnd)
    }
    #expect(decoded.count == values.count)
    return ((0..<decoded.count).map { decoded[$0] }, bytes)
  }

  /// ``encodeAndDecode(_:)`` of a `Double` or `Date` column, with the blocks its bytes hold.
  private func roundTrip<Value: ColumnValue>(_ values: [Value]) throws -> (
    [Value], [UInt8], [Block]
  ) {
    let (decoded, bytes) = try encodeAndDecode(values)
    return (decoded, bytes, blocks(of: bytes))
  }

  /// The blocks of a packed column's bytes (after its row count).
  private func blocks(of bytes: [UInt8]) -> [Block] {
    var count = 0
    for byte in 0..<8 { count |= Int(bytes[byte]) << (8 * byte) }
    var offset = 8
    var result: [Block] = []
    var first = 0
    while first < count {
      let rows = min(count - first, block)
      var found = Block(tag: bytes[offset])
      if found.tag == PackedNumberLayout.rawTag {
        offset += 1 + rows * 8
      } else {
        found.exponent = Int(bytes[offset + 1])
        found.width = Int(bytes[offset + 2])
        offset +=
          PackedNumberLayout.packedHeaderSize
          + PackedNumberLayout.packedSize(rows: rows, width: found.width)
      }
      result.append(found)
      first += rows
    }
    #expect(offset == bytes.count)
    return result
  }

  private func bits(_ values: [Double]) -> [UInt64] { values.map(\.bitPattern) }

  @Test("whole seconds since 2001 pack at exponent 0 in the bits their range needs")
  func wholeSeconds() throws {
    var random = QueryRandom(seed: 1)
    // Ten years of whole seconds (the benchmark's dates), over two blocks and a partial third.
    let count = 2 * block + 37
    let dates = (0..<count).map { _ in
      Date(timeIntervalSinceReferenceDate: 599_529_600 + Double(random.next() % 315_619_200))
    }
    let (decoded, bytes, blocks) = try roundTrip(dates)
    #expect(
      bits(decoded.map(\.timeIntervalSinceReferenceDate))
        == bits(dates.map(\.timeIntervalSinceReferenceDate)))
    #expect(blocks.allSatisfy { $0.tag == 1 && $0.exponent == 0 && $0.width <= 29 })
    #expect(blocks.count == 3 && blocks[0].width == 29 && blocks[1].width == 29)
    #expect(bytes.count < 8 + count * 4)
  }

  @Test(
    "cents and negative amounts pack at exponent 2; a value of more digits leaves its block raw")
  func cents() throws {
    var random = QueryRandom(seed: 2)
    let count = 3 * block
    var values = (0..<count).map { _ in
      Double(Int64(random.next() % 2_000_001) - 1_000_000) / 100
    }
    values[block + 5] = 1.0 / 3
    let (decoded, _, blocks) = try roundTrip(values)
    #expect(bits(decoded) == bits(values))
    #expect(blocks.map(\.tag) == [1, 0, 1])
    #expect(blocks[0].exponent == 2 && blocks[0].width == 21)
    #expect(blocks[2].exponent == 2 && blocks[2].width == 21)
  }

  @Test(
    "each block takes the smallest exponent that gives its values back; five digits stay raw",
    arguments: [(0.5, 1), (0.25, 2), (0.125, 3), (0.0625, 4), (0.00001, -1), (3, 0)])
  func exponents(step: Double, exponent: Int) throws {
    let values = (0..<100).map { Double($0) * step - 20 * step }
    let (decoded, _, blocks) = try roundTrip(values)
    #expect(bits(decoded) == bits(values))
    if exponent < 0 {
      #expect(blocks == [Block(tag: 0)])
    } else {
      #expect(blocks.map(\.tag) == [1] && blocks[0].exponent == exponent)
    }
  }

  @Test("-0.0, NaN, infinities, subnormal and huge values leave their block raw, bit for bit")
  func specialValues() throws {
    let specials: [Double] = [
      -0.0, .nan, Double(nan: 0x1234, signaling: false), -.nan, .infinity, -.infinity,
      .greatestFiniteMagnitude, -.greatestFiniteMagnitude, .leastNonzeroMagnitude,
      .leastNormalMagnitude, 1e300, 0x1p63, -0x1p63, 0x1p62 + 0x1p10,
    ]
    for special in specials {
      // The special value in the middle of a block of whole numbers, and one block after it.
      var values = (0..<(block + 10)).map { Double($0) }
      values[500] = special
      let (decoded, _, blocks) = try roundTrip(values)
      #expect(bits(decoded) == bits(values), "\(special)")
      #expect(blocks.map(\.tag) == [0, 1], "\(special)")
    }
    // The same values as dates.
    let dates = specials.map { Date(timeIntervalSinceReferenceDate: $0) }
    let (decoded, _, _) = try roundTrip(dates)
    #expect(bits(decoded.map(\.timeIntervalSinceReferenceDate)) == bits(specials))
  }

  @Test("magnitudes up to 2^62 pack at the widest widths and read back through the slow path")
  func wideValues() throws {
    var random = QueryRandom(seed: 3)
    for width in [40, 56, 57, 60, 62] {
      // Whole numbers spanning `width` bits, some negative, and the block's extremes.
      let count = block + 300
      var values = (0..<count).map { _ in
        Double(Int64(bitPattern: random.next() >> UInt64(64 - width)) - (1 << (width - 1)))
      }
      // The largest whole Double below 2^(width - 1) (past 2^53, Doubles skip integers).
      values[0] = -Double(1 << (width - 1))
      values[1] = width > 53 ? Double(1 << (width - 1)).nextDown : Double((1 << (width - 1)) - 1)
      let (decoded, _, blocks) = try roundTrip(values)
      #expect(bits(decoded) == bits(values), "width \(width)")
      #expect(blocks.first == Block(tag: 1, exponent: 0, width: width))
    }
    // ±2^62 is the largest magnitude packed: 64 bits between them, more than raw takes.
    let (decoded, _, blocks) = try roundTrip([-0x1p62, 0x1p62, 0x1p62, -0x1p62])
    #expect(bits(decoded) == bits([-0x1p62, 0x1p62, 0x1p62, -0x1p62]))
    #expect(blocks == [Block(tag: 0)])
  }

  @Test("an empty column is its row count; a constant column packs at width 0")
  func emptyAndConstant() throws {
    let (none, emptyBytes, _) = try roundTrip([Double]())
    #expect(none.isEmpty && emptyBytes == [UInt8](repeating: 0, count: 8))
    let values = [Double](repeating: -12.5, count: 2 * block + 2)
    let (decoded, bytes, blocks) = try roundTrip(values)
    #expect(bits(decoded) == bits(values))
    #expect(blocks == Array(repeating: Block(tag: 1, exponent: 1, width: 0), count: 3))
    #expect(bytes.count == 8 + 3 * PackedNumberLayout.packedHeaderSize)
  }

  @Test("a block packs only when that is smaller than raw")
  func smallBlocks() throws {
    // One value: 9 bytes raw, 11 packed.
    let (one, _, oneBlocks) = try roundTrip([7.25])
    #expect(bits(one) == bits([7.25]) && oneBlocks == [Block(tag: 0)])
    let (two, twoBytes, twoBlocks) = try roundTrip([7.25, 7.25])
    #expect(bits(two) == bits([7.25, 7.25]))
    #expect(twoBlocks == [Block(tag: 1, exponent: 2, width: 0)] && twoBytes.count == 8 + 11)
    // Two values 51 bits apart: 24 bytes packed, 17 raw.
    let (far, _, farBlocks) = try roundTrip([1e15, -1e15])
    #expect(bits(far) == bits([1e15, -1e15]) && farBlocks == [Block(tag: 0)])
  }

  @Test("optional Double and Date columns keep their value-by-value coding")
  func optionals() throws {
    let values: [Double?] = [nil, 1.5, -0.0, .nan, nil, 2]
    let (decoded, bytes) = try encodeAndDecode(values)
    #expect(decoded.map { $0?.bitPattern } == values.map { $0?.bitPattern })
    #expect(bytes.count == 8 + values.count + 4 * 8)
    let dates: [Date?] = [Date(timeIntervalSinceReferenceDate: 1), nil]
    let (decodedDates, dateBytes) = try encodeAndDecode(dates)
    #expect(decodedDates == dates && dateBytes.count == 8 + 2 + 8)
  }

  @Test("format 6 writes the same columns raw, and a format 6 file still reads")
  func olderFormat() throws {
    let values = (0..<(block + 3)).map { Double($0) / 100 }
    let column = Column<Double>()
    column.grow(to: values.count)
    for (row, value) in values.enumerated() { column[row] = value }
    var writer = ByteWriter()
    column.encode(into: &writer, format: SnapshotFormat.compactLayoutVersion)
    #expect(writer.count == 8 + values.count * 8)

    let store = try SnapshotFixture.makeStore(trips: block + 100, deletions: 20)
    let older = SnapshotWriter.encode(store.version, formatVersion: 6)
    let packed = SnapshotWriter.encode(store.version)
    #expect(older[8] == 6 && packed[8] == UInt8(SnapshotFormat.version))
    #expect(packed.count < older.count)
    let fromOlder = try SnapshotReader.decode(older, path: "older.mgs")
    #expect(SnapshotWriter.encode(fromOlder) == packed)
    #expect(SnapshotWriter.encode(fromOlder, formatVersion: 6) == older)
    let decoded = try SnapshotReader.decode(packed, path: "packed.mgs")
    #expect(SnapshotWriter.encode(decoded) == packed)
  }
}
