import Foundation
import Testing

@testable import ModelGraphCore

/// Searching a string chunk's arena as one run of bytes gives each row's own answer.
@Suite("Query engine: string searches over a whole arena")
struct StringArenaSearchTests {
  /// A seeded generator, so a failure repeats.
  private struct SplitMix {
    var state: UInt64
    mutating func next() -> UInt64 {
      state &+= 0x9E37_79B9_7F4A_7C15
      var z = state
      z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
      z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
      return z ^ (z >> 31)
    }
    mutating func below(_ n: Int) -> Int { Int(next() % UInt64(n)) }
  }

  @Test("the word-at-a-time search finds the first occurrence a byte loop finds")
  func firstOccurrence() {
    var random = SplitMix(state: 7)
    for _ in 0..<2_000 {
      // A small alphabet, so needles occur often and partly.
      let hay = (0..<random.below(60)).map { _ in
        UInt8(ascii: "a") + UInt8(random.below(random.below(4) == 0 ? 3 : 1))
      }
      let needle = (0..<1 + random.below(random.below(2) == 0 ? 3 : 12)).map { _ in
        UInt8(ascii: "a") + UInt8(random.below(random.below(4) == 0 ? 3 : 1))
      }
      let from = hay.isEmpty ? 0 : random.below(hay.count + 1)
      let end = from + (hay.count == from ? 0 : random.below(hay.count - from + 1))
      var wanted = end
      if end >= needle.count {
        for position in stride(from: from, through: end - needle.count, by: 1)
        where Array(hay[position..<position + needle.count]) == needle {
          wanted = position
          break
        }
      }
      let found = hay.withUnsafeBufferPointer { hay in
        needle.withUnsafeBufferPointer { needle in
          ByteSearch.first(
            needle.baseAddress!, count: needle.count,
            in: hay.baseAddress ?? UnsafePointer(bitPattern: 1)!,
            from: from, end: end)
        }
      }
      #expect(found == wanted, "\(hay) \(needle) \(from)..<\(end)")
    }
  }

  @Test("the case-folding search finds the first occurrence a folding byte loop finds")
  func firstFoldedOccurrence() {
    var random = SplitMix(state: 13)
    // Letters in both cases, the bytes next to "A"..."Z" and "a"..."z", and bytes outside ASCII.
    let alphabet: [UInt8] = [
      0x40, 0x41, 0x42, 0x5A, 0x5B, 0x60, 0x61, 0x62, 0x7A, 0x7B, 0xC1, 0xE1,
    ]
    func lower(_ byte: UInt8) -> UInt8 { (0x41...0x5A).contains(byte) ? byte + 0x20 : byte }
    for _ in 0..<4_000 {
      // Half the time only "@" and "A" (and so "a" in the needle), so long needles match too.
      let letters = random.below(2) == 0 ? 2 : alphabet.count
      let hay = (0..<random.below(60)).map { _ in alphabet[random.below(letters)] }
      let needle = (0..<1 + random.below(random.below(2) == 0 ? 3 : 12)).map { _ in
        lower(alphabet[random.below(letters)])
      }
      let from = hay.isEmpty ? 0 : random.below(hay.count + 1)
      let end = from + (hay.count == from ? 0 : random.below(hay.count - from + 1))
      var wanted = end
      if end >= needle.count {
        for position in stride(from: from, through: end - needle.count, by: 1)
        where hay[position..<position + needle.count].map(lower) == needle {
          wanted = position
          break
        }
      }
      let found = hay.withUnsafeBufferPointer { hay in
        needle.withUnsafeBufferPointer { needle in
          ByteSearch.firstFolded(
            needle.baseAddress!, count: needle.count,
            in: hay.baseAddress ?? UnsafePointer(bitPattern: 1)!,
            from: from, end: end)
        }
      }
      #expect(found == wanted, "\(hay) \(needle) \(from)..<\(end)")
    }
  }

  @Test("every byte folds as an ASCII lowercasing of that byte alone")
  func foldedWord() {
    for byte in 0...255 {
      for neighbour: UInt64 in [0x00, 0x41, 0x5A, 0x80, 0xFF] {
        let word = UInt64(byte) << 24 | neighbour << 16 | neighbour << 32 | neighbour
        let folded = ByteSearch.foldedWord(word)
        #expect(UInt8(truncatingIfNeeded: folded >> 24) == ByteSearch.foldedByte(UInt8(byte)))
        #expect(folded & ~(0xFF << 24) == ByteSearch.foldedWord(word & ~(0xFF << 24)))
      }
    }
  }

  @Test("a scan for localizedStandardContains with letters agrees with Foundation on ASCII rows")
  func foldedScanAgreesWithFoundation() throws {
    var random = SplitMix(state: 17)
    let words = ["Trip", "trip", "TRIP", "tRiP", "Company 12", "city", "Ip", "x", "", "Stay 9"]
    let count = (1 << AnyColumn.chunkShift) + 100
    let values: [String?] = (0..<count).map { _ in
      random.below(12) == 0
        ? nil
        : (0..<random.below(3)).map { _ in words[random.below(words.count)] }.joined(separator: " ")
    }
    let column = Column<String?>()
    column.grow(to: count)
    for (row, value) in values.enumerated() { column[row] = value }
    for needle in ["trip", "TRIP", "ip c", "Y 1", "p", "Stay 9", "tripx"] {
      let condition = try #require(
        StringScan.make(column, StringPattern(needle), .localizedStandardContains))
      var counted = 0
      var refined: [Int] = []
      let selection = RowSelection()
      let stamps = [UInt32](repeating: 1, count: count)
      for chunk in 0..<column.chunkCount {
        let start = chunk << AnyColumn.chunkShift
        let rows = min(count - start, 1 << AnyColumn.chunkShift)
        stamps.withUnsafeBufferPointer { all in
          let live = UnsafeBufferPointer(rebasing: all[start..<start + rows])
          selection.selectLive(live, chunkStart: start)
          counted += condition.countChunk!(chunk, live)
        }
        condition.refine!(selection)
        _ = selection.forEachRow {
          refined.append($0)
          return true
        }
      }
      let wanted = (0..<count).filter { values[$0]?.localizedStandardContains(needle) ?? false }
      #expect(refined == wanted, "\(needle)")
      #expect(counted == wanted.count, "\(needle)")
      #expect((0..<count).filter { condition.test($0) } == wanted, "\(needle)")
    }
  }

  @Test(
    "refine and count agree with each row's test, with dead rows, sparse selections, needles across rows"
  )
  func rows() throws {
    var random = SplitMix(state: 11)
    let pieces = [
      "9", "99", "a9", "9b", "Trip 1990", "x", "", "é9", "9\u{301}", "TRIP 99",
      "long value 0099 with 9s",
    ]
    let count = (1 << AnyColumn.chunkShift) + 300
    let values: [String?] = (0..<count).map { _ in
      random.below(10) == 0 ? nil : pieces[random.below(pieces.count)]
    }
    for inlineLimit in [StringChunk.inlineLimit, 6] {
      let column = Column<String?>()
      column.stringStorage.inlineLimit = inlineLimit
      column.grow(to: count)
      for (row, value) in values.enumerated() { column[row] = value }
      for needle in ["99", "9", "a99b", "9b", "TRIP", "trip 1", "B", "é"] {
        for op in [QueryStringOperator.contains, .localizedStandardContains] {
          let condition = try #require(StringScan.make(column, StringPattern(needle), op))
          let expected = (0..<count).map { row in
            values[row].map { StringPattern(needle).matches($0, op) } ?? false
          }
          for density in [1, 3, 40] {
            // Live rows: every row, or one in `density`.
            let stamps = (0..<count).map { UInt32($0 % density == 0 ? 1 : 0) }
            var refined: [Int] = []
            var counted = 0
            let selection = RowSelection()
            for chunk in 0..<column.chunkCount {
              let start = chunk << AnyColumn.chunkShift
              let rows = min(count - start, 1 << AnyColumn.chunkShift)
              stamps.withUnsafeBufferPointer { all in
                let live = UnsafeBufferPointer(rebasing: all[start..<start + rows])
                selection.selectLive(live, chunkStart: start)
                counted += condition.countChunk!(chunk, live)
              }
              condition.refine!(selection)
              _ = selection.forEachRow {
                refined.append($0)
                return true
              }
            }
            let wanted = (0..<count).filter { stamps[$0] == 1 && expected[$0] }
            #expect(refined == wanted, "\(needle) \(op) 1/\(density)")
            #expect(counted == wanted.count, "\(needle) \(op) 1/\(density)")
          }
        }
      }
    }
  }

  @Test(
    "refine by occurrences keeps the selected rows holding the needle, in chunks of simple rows only"
  )
  func occurrenceWalk() throws {
    var random = SplitMix(state: 23)
    // Simple rows only in the first two chunks (empty rows, needles split across rows, long
    // runs without one); the third also holds a row that is not simple, so it tests each row.
    let pieces = ["9", "99", "a9", "9b", "Trip 1990", "x", "", "TRIP 99", "trip", "99 ip", "Ti"]
    let chunkRows = 1 << AnyColumn.chunkShift
    let count = 2 * chunkRows + 200
    var values: [String] = (0..<count).map { row in
      // Stretches of rows that never hold "9" or "ip", so occurrences lie far apart.
      row % 300 < 150 ? pieces[random.below(pieces.count)] : "x"
    }
    values[2 * chunkRows + 7] = "é99"
    let column = Column<String>()
    column.grow(to: count)
    for (row, value) in values.enumerated() { column[row] = value }
    for needle in ["99", "9", "9b", "a99b", "TRIP", "trip 1", "ip", "x", "Ti"] {
      for op in [QueryStringOperator.contains, .localizedStandardContains] {
        let condition = try #require(StringScan.make(column, StringPattern(needle), op))
        for density in [1, 2, 7] {
          let stamps = (0..<count).map { UInt32($0 % density == 0 ? 1 : 0) }
          var refined: [Int] = []
          let selection = RowSelection()
          for chunk in 0..<column.chunkCount {
            let start = chunk << AnyColumn.chunkShift
            let rows = min(count - start, chunkRows)
            stamps.withUnsafeBufferPointer { all in
              selection.selectLive(
                UnsafeBufferPointer(rebasing: all[start..<start + rows]), chunkStart: start)
            }
            condition.refine!(selection)
            _ = selection.forEachRow {
              refined.append($0)
              return true
            }
          }
          let wanted = (0..<count).filter {
            stamps[$0] == 1 && StringPattern(needle).matches(values[$0], op)
          }
          #expect(refined == wanted, "\(needle) \(op) 1/\(density)")
          // The walk is tested on rows that hold the needle (only these two never occur).
          #expect(
            !wanted.isEmpty || needle == "a99b" || (needle == "trip 1" && op == .contains),
            "\(needle) \(op) 1/\(density)")
        }
      }
    }
  }

  @Test("a chunk holds only simple rows until a row holds nil or a byte outside ASCII")
  func simpleRowsFlag() {
    let plain = Column<String>()
    plain.grow(to: 70)
    for row in 0..<70 { plain[row] = "row \(row)" }
    #expect(plain.stringStorage.chunk(0).holdsOnlySimpleRows)
    plain[65] = "é"
    #expect(!plain.stringStorage.chunk(0).holdsOnlySimpleRows)
    let optional = Column<String?>()
    optional.grow(to: 3)
    optional[0] = "a"
    optional[1] = "b"
    optional[2] = "c"
    #expect(optional.stringStorage.chunk(0).holdsOnlySimpleRows)
    optional[1] = nil
    #expect(!optional.stringStorage.chunk(0).holdsOnlySimpleRows)
  }
}
