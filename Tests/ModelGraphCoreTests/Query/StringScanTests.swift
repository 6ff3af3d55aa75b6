import Foundation
import Testing

@testable import ModelGraphCore

/// Scans of string columns over their bytes agree with the character-level definitions.
@Suite("Query engine: string scans over UTF-8 arenas")
struct StringScanTests {
  static let haystacks: [String?] =
    QueryStringMatchingTests.haystacks.map { $0 as String? } + [
      nil, "trip 99", "TRIP 1990", "9 9", "\u{301}", "a\u{301}", "Ünïcödé 99", "",
    ]
  static let needles =
    QueryStringMatchingTests.needles + ["\u{301}", "99", "É", "ÉCLAIR", "tRiP", "9 9", "Ü"]
  static let operators: [QueryStringOperator] = [
    .contains, .hasPrefix, .hasSuffix, .localizedStandardContains,
  ]

  /// The expected answer, as array filtering computes it.
  private func expected(_ hay: String?, _ needle: String, _ op: QueryStringOperator) -> Bool {
    guard let hay else { return false }
    switch op {
    case .contains: return StringMatching.contains(hay, needle)
    case .hasPrefix: return StringMatching.hasPrefix(hay, needle)
    case .hasSuffix: return StringMatching.hasSuffix(hay, needle)
    case .localizedStandardContains: return StringMatching.localizedStandardContains(hay, needle)
    }
  }

  /// Inline limits: the real one, and one that holds most test values out of line.
  static let inlineLimits = [StringChunk.inlineLimit, 3]

  /// A column of `values` repeated past one chunk, so scans cross a chunk boundary; values
  /// longer than `inlineLimit` bytes are held out of line.
  private func column(_ values: [String?], inlineLimit: Int) -> Column<String?> {
    let column = Column<String?>()
    column.stringStorage.inlineLimit = inlineLimit
    let count = (1 << AnyColumn.chunkShift) + values.count * 3
    column.grow(to: count)
    for row in 0..<count { column[row] = values[row % values.count] }
    return column
  }

  @Test(
    "test, refine and count agree with array filtering for every needle and operator",
    arguments: inlineLimits)
  func differential(inlineLimit: Int) throws {
    let values = Self.haystacks
    let column = column(values, inlineLimit: inlineLimit)
    let stamps = [UInt32](repeating: 1, count: 1 << AnyColumn.chunkShift)
    for needle in Self.needles {
      for op in Self.operators {
        let condition = try #require(StringScan.make(column, StringPattern(needle), op))
        let wanted = (0..<column.count).filter { expected(values[$0 % values.count], needle, op) }
        let tested = (0..<column.count).filter { condition.test($0) }
        #expect(tested == wanted, "\(needle) \(op)")
        var refined: [Int] = []
        var counted = 0
        let selection = RowSelection()
        for chunk in 0..<column.chunkCount {
          let start = chunk << AnyColumn.chunkShift
          let rows = min(column.count - start, 1 << AnyColumn.chunkShift)
          stamps.withUnsafeBufferPointer { all in
            let live = UnsafeBufferPointer(rebasing: all[0..<rows])
            selection.selectLive(live, chunkStart: start)
            counted += condition.countChunk!(chunk, live)
          }
          condition.refine!(selection)
          _ = selection.forEachRow {
            refined.append($0)
            return true
          }
        }
        #expect(refined == wanted, "\(needle) \(op)")
        #expect(counted == wanted.count, "\(needle) \(op)")
      }
    }
  }

  @Test(
    "a non-optional column scans the same as its optional twin without nils",
    arguments: inlineLimits)
  func plainColumn(inlineLimit: Int) throws {
    let values = Self.haystacks.compactMap { $0 }
    let column = Column<String>()
    column.stringStorage.inlineLimit = inlineLimit
    column.grow(to: values.count)
    for (row, value) in values.enumerated() { column[row] = value }
    for needle in Self.needles {
      for op in Self.operators {
        let condition = try #require(StringScan.make(column, StringPattern(needle), op))
        let wanted = values.indices.filter { expected(values[$0], needle, op) }
        #expect(values.indices.filter { condition.test($0) } == wanted, "\(needle) \(op)")
      }
    }
  }

  @Test(
    "== and != of a constant agree with Swift's String and Optional equality",
    arguments: inlineLimits)
  func equality(inlineLimit: Int) throws {
    let values: [String?] =
      Self.haystacks + ["K", "\u{212A}", "é", "e\u{301}", "Café", "Cafe\u{301}", "x\r\ny"]
    let column = column(values, inlineLimit: inlineLimit)
    let constants: [String?] = [nil] + Self.needles + ["K", "é", "Cafe\u{301}", "x\r\ny", "Oslo"]
    for constant in constants {
      let equal = try #require(
        StringScan.equality(DirectColumn.optional(column), constant, EqualKernel.self))
      let unequal = try #require(
        StringScan.equality(DirectColumn.optional(column), constant, NotEqualKernel.self))
      let wanted = (0..<column.count).filter { values[$0 % values.count] == constant }
      #expect(
        (0..<column.count).filter { equal.test($0) } == wanted, "\(String(describing: constant))")
      #expect(
        (0..<column.count).filter { !unequal.test($0) } == wanted,
        "\(String(describing: constant))")
      let selection = RowSelection()
      var refined: [Int] = []
      let stamps = [UInt32](repeating: 1, count: 1 << AnyColumn.chunkShift)
      for chunk in 0..<column.chunkCount {
        let start = chunk << AnyColumn.chunkShift
        let rows = min(column.count - start, 1 << AnyColumn.chunkShift)
        stamps.withUnsafeBufferPointer {
          selection.selectLive(UnsafeBufferPointer(rebasing: $0[0..<rows]), chunkStart: start)
        }
        equal.refine!(selection)
        _ = selection.forEachRow {
          refined.append($0)
          return true
        }
      }
      #expect(refined == wanted, "\(String(describing: constant))")
    }
  }

  @Test(
    "<, <=, >, >= of a constant agree with String's operators; nil rows never match",
    arguments: inlineLimits)
  func ordering(inlineLimit: Int) throws {
    let values: [String?] =
      Self.haystacks + [
        "K", "\u{212A}", "é", "e\u{301}", "e", "f", "Café", "Cafe\u{301}", "x\r\ny", "x\ny",
        "Trip 10", "Trip 9", "trip", "tri",
      ]
    let column = column(values, inlineLimit: inlineLimit)
    let constants =
      Self.needles + ["", "K", "\u{212A}", "é", "e\u{301}", "Cafe\u{301}", "x\r\ny", "x\r", "trip"]
    let direct = DirectColumn.optional(column)
    func check<K: OrderingKernel>(
      _: K.Type, _ name: String, _ expected: (String, String) -> Bool
    ) throws {
      for constant in constants {
        let condition = try #require(StringScan.ordering(direct, constant, K.self))
        let wanted = (0..<column.count).filter { row in
          values[row % values.count].map { expected($0, constant) } ?? false
        }
        #expect((0..<column.count).filter { condition.test($0) } == wanted, "\(name) \(constant)")
        var counted = 0
        let stamps = [UInt32](repeating: 1, count: 1 << AnyColumn.chunkShift)
        for chunk in 0..<column.chunkCount {
          let rows = min(column.count - (chunk << AnyColumn.chunkShift), stamps.count)
          counted += stamps.withUnsafeBufferPointer {
            condition.countChunk!(chunk, UnsafeBufferPointer(rebasing: $0[0..<rows]))
          }
        }
        #expect(counted == wanted.count, "\(name) \(constant)")
      }
    }
    try check(LessKernel.self, "<") { $0 < $1 }
    try check(LessOrEqualKernel.self, "<=") { $0 <= $1 }
    try check(GreaterKernel.self, ">") { $0 > $1 }
    try check(GreaterOrEqualKernel.self, ">=") { $0 >= $1 }
  }
}
