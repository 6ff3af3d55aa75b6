import Foundation
import Testing

@testable import ModelGraphCore

@Suite("Journal: bit flips and truncation at every offset")
struct JournalBadFileTests {
  /// A snapshot, a journal of three saves after it, and the state after each prefix of them.
  struct Sample {
    var snapshot: [UInt8]
    var journal: [UInt8]
    var states: [[UInt8]]
    var ends: [Int]
  }

  static func sample() throws -> Sample {
    let disk = SimFS()
    let files = StoreFiles(path: "/sim/store.mgs", io: disk)
    let opened = try JournalFixture.open(files)
    var states = [JournalFixture.bytes(opened.store)]
    for step in 0..<3 {
      try JournalFixture.save(step: step, store: opened.store)
      states.append(JournalFixture.bytes(opened.store))
    }
    let journal = disk.contents(of: files.journalPath)!
    let ends = try journal.withUnsafeBytes {
      try JournalReader($0, path: "j").records.map(\.payload.upperBound)
    }
    return Sample(
      snapshot: disk.contents(of: files.snapshot.path)!, journal: journal, states: states,
      ends: ends)
  }

  /// Recovers `snapshot` beside `journal` on a new disk.
  static func recover(_ sample: Sample, journal: [UInt8]) throws -> StoreFiles.Recovered {
    let disk = SimFS()
    disk.place(sample.snapshot, at: "/sim/store.mgs")
    disk.place(journal, at: "/sim/store.mgs-journal")
    return try StoreFiles(path: "/sim/store.mgs", io: disk).recover()
  }

  @Test("a flipped bit in the header refuses the journal; in a record, cuts from that record")
  func bitFlips() throws {
    let sample = try Self.sample()
    let end = sample.ends.last!
    #expect(sample.ends.count == 3 && end < sample.journal.count, "zeros are written ahead")
    var failures: [String] = []
    for offset in sample.journal.indices.prefix(end + 64) {
      var journal = sample.journal
      journal[offset] ^= 1 << UInt8(offset % 8)
      if offset < JournalFormat.headerSize {
        do {
          _ = try Self.recover(sample, journal: journal)
          failures.append("offset \(offset): a damaged header was accepted")
        } catch let error as JournalError where error.code == .badHeader {
        } catch {
          failures.append("offset \(offset): \(error)")
        }
        continue
      }
      // A flip in the zeros written ahead damages the tail after the last record.
      let record = sample.ends.firstIndex { offset < $0 } ?? 3
      let start = record == 0 ? JournalFormat.headerSize : sample.ends[record - 1]
      let recovered = try Self.recover(sample, journal: journal)
      let report = recovered.report
      if recovered.version.map({ SnapshotWriter.encode($0) }) != sample.states[record]
        || report.replayedRecords != record || report.droppedRecords != max(3 - record, 1)
        || report.droppedBytes != journal.count - start
      {
        failures.append("offset \(offset) in record \(record): \(report)")
      }
    }
    #expect(failures.isEmpty, "\(failures.prefix(10))")
  }

  @Test("a journal cut at any length recovers every whole record before the cut")
  func truncation() throws {
    let sample = try Self.sample()
    var failures: [String] = []
    for length in 0..<(sample.ends.last! + 64) {
      let journal = Array(sample.journal.prefix(length))
      guard length >= JournalFormat.headerSize else {
        do {
          _ = try Self.recover(sample, journal: journal)
          failures.append("length \(length): a cut header was accepted")
        } catch let error as JournalError where error.code == .badHeader {
        } catch {
          failures.append("length \(length): \(error)")
        }
        continue
      }
      // Past the last record the bytes are zeros written ahead: nothing is dropped.
      let whole = sample.ends.filter { $0 <= length }.count
      let end = whole == 3 ? length : whole == 0 ? JournalFormat.headerSize : sample.ends[whole - 1]
      let recovered = try Self.recover(sample, journal: journal)
      let report = recovered.report
      if recovered.version.map({ SnapshotWriter.encode($0) }) != sample.states[whole]
        || report.replayedRecords != whole || report.droppedBytes != length - end
        || report.droppedRecords != (length > end ? 1 : 0)
      {
        failures.append("length \(length): \(report)")
      }
    }
    #expect(failures.isEmpty, "\(failures.prefix(10))")
  }

  @Test("a record whose checksum matches but whose contents are impossible is a clear error")
  func hostileRecord() throws {
    let sample = try Self.sample()
    var journal = Array(sample.journal.prefix(sample.ends[0]))
    // Entity 7 does not exist: table count 1, entity index 7.
    let payload: [UInt8] = [0, 1, 0, 0, 0, 7, 0, 0, 0]
    let number = sample.journal.withUnsafeBytes {
      $0.loadUnaligned(fromByteOffset: JournalFormat.headerSize + 24, as: UInt64.self)
    }
    let generation = sample.journal.withUnsafeBytes {
      $0.loadUnaligned(fromByteOffset: 16, as: UInt64.self)
    }
    JournalFormat.appendRecord(
      to: &journal, generation: generation, number: number + 1, payload: payload)
    let error = try #require(throws: JournalError.self) {
      try Self.recover(sample, journal: journal)
    }
    #expect(error.code == .malformed && error.offset != nil)
    #expect(error.message.contains("entity 7"))
    var outOfOrder = Array(sample.journal.prefix(sample.ends[0]))
    JournalFormat.appendRecord(
      to: &outOfOrder, generation: generation, number: number + 5, payload: [0, 0, 0, 0, 0])
    let order = try #require(throws: JournalError.self) {
      try Self.recover(sample, journal: outOfOrder)
    }
    #expect(order.code == .malformed && order.message.contains("follows version"))
  }

  @Test("a record naming a huge row count is refused before its tables are allocated")
  func hugeRowCount() throws {
    let sample = try Self.sample()
    var journal = Array(sample.journal.prefix(sample.ends[0]))
    let number = sample.journal.withUnsafeBytes {
      $0.loadUnaligned(fromByteOffset: JournalFormat.headerSize + 24, as: UInt64.self)
    }
    let generation = sample.journal.withUnsafeBytes {
      $0.loadUnaligned(fromByteOffset: 16, as: UInt64.self)
    }
    // No catalog; one table: entity 0 grown to Int32.max rows, no rows written.
    var payload: [UInt8] = [0, 1, 0, 0, 0, 0, 0, 0, 0]
    withUnsafeBytes(of: UInt64(Int32.max).littleEndian) { payload += $0 }
    withUnsafeBytes(of: UInt64(0).littleEndian) { payload += $0 }
    JournalFormat.appendRecord(
      to: &journal, generation: generation, number: number + 1, payload: payload)
    let error = try #require(throws: JournalError.self) {
      try Self.recover(sample, journal: journal)
    }
    #expect(error.code == .malformed, "\(error)")
    #expect(error.message.contains("bytes of tables"), "\(error)")
  }
}
