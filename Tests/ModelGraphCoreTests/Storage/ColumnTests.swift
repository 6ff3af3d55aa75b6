import Foundation
import Testing

@testable import ModelGraphCore

private let chunkSize = 1 << AnyColumn.chunkShift

private func makeNumbers(count: Int) -> Column<Int64> {
  let column = Column<Int64>()
  for row in 0..<count { column.append(Int64(row)) }
  return column
}

@Suite("Column: chunked copy-on-write storage")
struct ColumnTests {
  @Test("values appended across chunk boundaries read back, chunk by chunk")
  func appendAcrossChunks() {
    let count = 2 * chunkSize + 17
    let column = makeNumbers(count: count)
    #expect(column.count == count)
    #expect(column[0] == 0)
    #expect(column[chunkSize - 1] == Int64(chunkSize - 1))
    #expect(column[chunkSize] == Int64(chunkSize))
    #expect(column[count - 1] == Int64(count - 1))

    var starts: [Int] = []
    var seen: [Int64] = []
    column.forEachChunk { start, values in
      starts.append(start)
      seen.append(contentsOf: values)
    }
    #expect(starts == [0, chunkSize, 2 * chunkSize])
    #expect(seen == (0..<Int64(count)).map { $0 })
  }

  @Test(
    "a copy does not see later writes to the original, nor the original the copy's",
    arguments: [0, 1, chunkSize - 1, chunkSize, chunkSize + 1, 2 * chunkSize + 16])
  func copyOnWrite(row: Int) {
    let original = makeNumbers(count: 2 * chunkSize + 17)
    let copy = unsafeDowncast(original.copy(), to: Column<Int64>.self)
    original[row] = -1
    #expect(copy[row] == Int64(row))
    #expect(original[row] == -1)

    copy[row] = -2
    #expect(original[row] == -1)
    #expect(copy[row] == -2)

    let neighbour = row == 0 ? 1 : row - 1
    #expect(original[neighbour] == Int64(neighbour))
    #expect(copy[neighbour] == Int64(neighbour))
  }

  @Test("appending to a copy leaves the original's count and last chunk alone")
  func appendToCopy() {
    let original = makeNumbers(count: chunkSize + 3)
    let copy = unsafeDowncast(original.copy(), to: Column<Int64>.self)
    for value in 0..<Int64(chunkSize) { copy.append(1000 + value) }
    #expect(original.count == chunkSize + 3)
    #expect(copy.count == 2 * chunkSize + 3)
    #expect(copy[chunkSize + 3] == 1000)
    var chunkCount = 0
    original.forEachChunk { _, _ in chunkCount += 1 }
    #expect(chunkCount == 2)
  }

  @Test("copy-on-write holds for columns of reference-backed values")
  func copyOnWriteStrings() {
    let original = Column<[String]?>()
    for row in 0..<(chunkSize + 2) { original.append(row.isMultiple(of: 2) ? ["r\(row)"] : nil) }
    let copy = unsafeDowncast(original.copy(), to: Column<[String]?>.self)
    original[chunkSize] = ["changed"]
    copy[1] = ["also"]
    #expect(copy[chunkSize] == ["r\(chunkSize)"])
    #expect(original[1] == nil)
    #expect(original[chunkSize] == ["changed"])
    #expect(copy[1] == ["also"])
  }

  @Test("the boxed API reads, writes and rejects values of another type")
  func boxedAccess() {
    let column = Column<String?>()
    column.grow(to: 3)
    #expect(column.count == 3)
    #expect(column.value(at: 2) == .null)
    #expect(column.setValue(.string("x"), at: 1))
    #expect(column.value(at: 1) == .string("x"))
    #expect(!column.setValue(.int(5), at: 1))
    #expect(column[1] == "x")
    #expect(column.setValue(.null, at: 1))
    #expect(column[1] == nil)
    #expect(ObjectIdentifier(column.elementType) == ObjectIdentifier(String?.self))
  }

  @Test("clear resets a row to the placeholder without touching its neighbours")
  func clearRow() {
    let column = makeNumbers(count: chunkSize + 2)
    column.clear(row: chunkSize)
    #expect(column[chunkSize] == 0)
    #expect(column[chunkSize + 1] == Int64(chunkSize + 1))
    #expect(column[chunkSize - 1] == Int64(chunkSize - 1))
  }

  @Test("holdsSameValue compares a row in place and is false against a column of another type")
  func holdsSameValue() {
    let column = makeNumbers(count: 3)
    let copy = unsafeDowncast(column.copy(), to: Column<Int64>.self)
    #expect(column.holdsSameValue(at: 1, as: copy))
    copy[1] = 7
    #expect(!column.holdsSameValue(at: 1, as: copy))
    #expect(column.holdsSameValue(at: 2, as: copy))
    let other = Column<Double>()
    for row in 0..<3 { other.append(Double(row)) }
    #expect(!column.holdsSameValue(at: 2, as: other))
  }
}
