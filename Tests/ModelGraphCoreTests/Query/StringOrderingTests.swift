import Foundation
import Testing

@testable import ModelGraphCore

@Suite("Query engine: sorting string columns over UTF-8 arenas")
struct StringOrderingTests {
  @Test(
    "the byte comparator orders every pair as String's < does, nil first ascending",
    arguments: StringScanTests.inlineLimits)
  func pairs(inlineLimit: Int) throws {
    let values: [String?] =
      StringScanTests.haystacks + ["K", "\u{212A}", "é", "e\u{301}", "f", "Trip 10", "Trip 9"]
    let column = Column<String?>()
    column.stringStorage.inlineLimit = inlineLimit
    column.grow(to: values.count)
    for (row, value) in values.enumerated() { column[row] = value }
    let key = CompiledValue.string(RowFunction(optionalColumn: column))
    for ascending in [true, false] {
      let compare = try #require(StringOrdering.comparator([key], ascending: ascending))
      let sign = ascending ? 1 : -1
      for (i, x) in values.enumerated() {
        for (j, y) in values.enumerated() {
          let wanted: Int
          switch (x, y) {
          case (nil, nil): wanted = 0
          case (nil, _): wanted = -sign
          case (_, nil): wanted = sign
          case (let x?, let y?): wanted = sign * (x < y ? -1 : y < x ? 1 : 0)
          }
          let found = compare(RowReference(table: 0, row: i), RowReference(table: 0, row: j))
          #expect(found == wanted, "\(String(describing: x)) / \(String(describing: y))")
        }
      }
    }
  }
}
