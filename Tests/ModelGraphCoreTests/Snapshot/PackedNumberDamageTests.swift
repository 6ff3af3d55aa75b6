import Foundation
import Testing

@testable import ModelGraphCore

/// Damaged blocks of format 7's packed `Double` and `Date` columns: every tag, exponent, width
/// and byte count is checked before anything is read or allocated, and the error names the
/// block's rows and the byte at fault.
@Suite("Snapshot packed numbers: damaged blocks (format 7)")
struct PackedNumberDamageTests {
  let format = SnapshotFormat.packedNumberVersion

  /// A row count of 8 little-endian bytes.
  private func count(_ value: UInt64) -> [UInt8] {
    (0..<8).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) }
  }

  /// A packed block's header: tag, exponent, width and base.
  private func packed(exponent: UInt8, width: UInt8, base: Int64 = 0) -> [UInt8] {
    [PackedNumberLayout.packedTag, exponent, width] + count(UInt64(bitPattern: base))
  }

  /// `bytes` read into a new `Double` column: its values, or the error.
  private func decode(_ bytes: [UInt8]) -> Result<[Double], SnapshotError> {
    bytes.withUnsafeBytes { raw in
      var reader = ByteReader(raw, fileOffset: 0, path: "test", section: "column")
      let column = Column<Double>()
      do {
        try column.decode(from: &reader, format: format)
        #expect(reader.isAtEnd)
        return .success((0..<column.count).map { column[$0] })
      } catch {
        return .failure(error as! SnapshotError)
      }
    }
  }

  /// The error `bytes` give, or `nil` when they read.
  private func failure(_ bytes: [UInt8]) -> SnapshotError? {
    if case .failure(let error) = decode(bytes) { return error }
    return nil
  }

  @Test("an exponent past 4, a width past 64 and an unknown tag are named with their block")
  func badFields() throws {
    let exponent = try #require(failure(count(3) + packed(exponent: 5, width: 0)))
    #expect(exponent.message == "rows 0..<3: exponent 5 is outside 0...4")
    #expect(exponent.offset == 9 && exponent.code == .malformed)
    let width = try #require(failure(count(3) + packed(exponent: 0, width: 65)))
    #expect(width.message == "rows 0..<3: width 65 is more than 64 bits")
    #expect(width.offset == 10)
    let tag = try #require(failure(count(2) + [2] + [UInt8](repeating: 0, count: 16)))
    #expect(tag.message == "rows 0..<2: 2 is not a layout of a block of numbers")
    #expect(tag.offset == 8)
  }

  @Test("a block whose bytes do not remain is refused before it is read")
  func shortBlocks() throws {
    let packedShort = try #require(
      failure(count(3) + packed(exponent: 0, width: 8) + [1, 2]))
    #expect(packedShort.message == "rows 0..<3: 3 values of 8 bits need 3 bytes, 2 remain")
    #expect(packedShort.offset == 10)
    let rawShort = try #require(
      failure(count(2) + [PackedNumberLayout.rawTag] + [UInt8](repeating: 0, count: 8)))
    #expect(rawShort.message == "rows 0..<2: 2 raw values need 16 bytes, 8 remain")
    #expect(rawShort.offset == 8)
    // The second block's error names its rows.
    let second = try #require(
      failure(count(1030) + packed(exponent: 0, width: 0) + packed(exponent: 9, width: 0)))
    #expect(second.message == "rows 1024..<1030: exponent 9 is outside 0...4")
    #expect(second.offset == 8 + 11 + 1)
  }

  @Test("a row count whose blocks cannot fit in the bytes left is refused before any chunk")
  func counts() throws {
    for value in [UInt64(1025), 1 << 40, .max] {
      let error = try #require(failure(count(value) + packed(exponent: 0, width: 0)))
      #expect(error.message == "count \(value) does not fit in the 11 bytes left")
      #expect(error.offset == 0)
    }
    // One block of 1,024 rows at width 0 fits in 11 bytes.
    #expect(
      try decode(count(1024) + packed(exponent: 0, width: 0, base: 7)).get()
        == [Double](repeating: 7, count: 1024))
  }

  @Test("set bits past a packed block's last row are refused")
  func padding() throws {
    // Three rows of 3 bits: 9 bits in 2 bytes, the second's 7 high bits unused.
    let good = count(3) + packed(exponent: 1, width: 3, base: -2) + [0b1101_0001, 0b0000_0001]
    #expect(try decode(good).get() == [-0.1, 0.0, 0.5])
    var bad = good
    bad[bad.count - 1] |= 0x80
    let error = try #require(failure(bad))
    #expect(error.message == "rows 0..<3: the last byte's unused bits are not 0")
    #expect(error.offset == bad.count - 1)
  }

  @Test("a 64-bit wide block (never written, still valid) reads through the slow path")
  func fullWidth() throws {
    let differences: [UInt64] = [0, 1 << 63, .max]
    let bytes =
      count(3) + packed(exponent: 0, width: 64, base: .min) + differences.flatMap(count)
    let values = try decode(bytes).get()
    #expect(values.map(\.bitPattern) == [-0x1p63, 0, 0x1p63].map(\.bitPattern))
  }

  @Test("any byte of a column's blocks changed gives values or an error, never a crash")
  func everyByte() throws {
    var random = QueryRandom(seed: 9)
    let column = Column<Date>()
    let rows = 2 * PackedNumberLayout.blockRows + 50
    column.grow(to: rows)
    for row in 0..<rows {
      let seconds = Double(600_000_000 + random.next() % 1_000_000)
      column[row] = Date(timeIntervalSinceReferenceDate: row == 1_500 ? seconds + 0.3 : seconds)
    }
    var writer = ByteWriter()
    column.encode(into: &writer, format: format)
    let bytes = writer.bytes
    var errors = 0
    for offset in bytes.indices {
      for value: UInt8 in [0x00, 0x41, 0xFF] where bytes[offset] != value {
        var copy = bytes
        copy[offset] = value
        copy.withUnsafeBytes { raw in
          var reader = ByteReader(raw, fileOffset: 0, path: "test", section: "column")
          do {
            try Column<Date>().decode(from: &reader, format: format)
          } catch let error as SnapshotError {
            errors += 1
            #expect(error.offset.map { $0 >= 0 && $0 <= copy.count } == true)
          } catch {
            Issue.record("not a SnapshotError: \(error)")
          }
        }
      }
    }
    // At least each block's tag and exponent set to 0x41 or 0xFF: most packed bits changed
    // are other valid values.
    #expect(errors >= 3 * 2 * 2)
  }

  @Test("a column announcing more rows than its table is refused before any row is read")
  func rowCountBeforeAllocation() throws {
    // A packed block of one repeated value takes 11 bytes for 1,024 rows: a forged count
    // must not make the reader allocate rows the table block did not announce.
    let store = try SnapshotFixture.makeStore(trips: 40, deletions: 0)
    var forge = SnapshotForge(SnapshotWriter.encode(store.version))
    let block = forge.column(entity: UInt32(SnapshotFixture.trip), role: 1, slot: 6)
    let rows = SnapshotForge.load(UInt64.self, forge.blocks[block].payload, 9)
    forge.put(rows + 1_000_000, block: block, at: 9)
    do {
      _ = try SnapshotReader.decode(forge.assemble(), path: "forged.mgs")
      Issue.record("a forged row count was read")
    } catch let error as SnapshotError {
      #expect(error.message == "column holds \(rows + 1_000_000) rows, the table \(rows)")
      #expect(error.offset == forge.offset(ofBlock: block) + 12 + 9)
    }
  }
}
