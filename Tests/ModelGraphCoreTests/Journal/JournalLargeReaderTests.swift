import Testing

@testable import ModelGraphCore

@Suite("Journal: a large journal's checksums, checked on two threads, cut it as one pass would")
struct JournalLargeReaderTests {
  /// The records found by checking each record in turn.
  private func sequential(_ bytes: [UInt8], generation: UInt64) -> [JournalReader.Record] {
    bytes.withUnsafeBytes { raw in
      var records: [JournalReader.Record] = []
      var position = JournalFormat.headerSize
      while let record = JournalReader.record(at: position, in: raw, generation: generation) {
        records.append(record)
        position = record.payload.upperBound
      }
      return records
    }
  }

  @Test(
    "damage in the first half, the second half, the last record or none",
    arguments: [
      nil, 3, 150, 299, 300, 451, 599,
    ])
  func cut(damaged: Int?) throws {
    var bytes = JournalFormat.header(generation: 7, base: 0)
    var starts: [Int] = []
    for number in 1...600 {
      starts.append(bytes.count)
      JournalFormat.appendRecord(
        to: &bytes, generation: 7, number: UInt64(number),
        payload: [UInt8](repeating: UInt8(number & 0xFF), count: 2_000))
    }
    #expect(bytes.count > 1 << 20)
    if let damaged {
      bytes[starts[damaged] + JournalFormat.recordHeaderSize + 10] ^= 0x01
    }
    let expected = sequential(bytes, generation: 7)
    #expect(expected.count == damaged ?? 600)
    let reader = try bytes.withUnsafeBytes { try JournalReader($0, path: "large") }
    #expect(reader.records == expected)
    #expect(reader.validLength == (damaged.map { starts[$0] } ?? bytes.count))
    #expect(reader.droppedRecords == (damaged.map { 600 - $0 } ?? 0))
  }
}
