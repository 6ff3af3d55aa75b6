import Foundation
import Testing

@testable import ModelGraphCore

/// Snapshots of string columns whose long values are held out of line (see ``StringChunk``):
/// the file does not depend on where a value is held, and reads back exactly. A lowered inline
/// limit stands for the real one, about 4 MiB.
@Suite("Snapshot string layout with values held out of line")
struct StringOutOfLineSnapshotTests {
  private static let names = [
    "a name long enough to go out of line", "abc", "", "Zürich ✈︎ and farther", "x\r\ny z",
  ]
  private static let notes: [String?] = [nil, "a note held out of line", "n", "", "東京の長いメモ"]

  /// A fixture store whose trip names and notes are rewritten, with `inlineLimit` on the
  /// session's working columns.
  private func store(inlineLimit: Int) throws -> (store: Store, rows: Int) {
    let store = try SnapshotFixture.makeStore(trips: 7, deletions: 0)
    let session = Session(store: store)
    let table = session.table(SnapshotFixture.trip)
    let names = table.column(0, as: String.self)
    let notes = table.column(2, as: String?.self)
    names.stringStorage.inlineLimit = inlineLimit
    notes.stringStorage.inlineLimit = inlineLimit
    for row in 0..<names.count {
      names[row] = Self.names[row % Self.names.count]
      notes[row] = Self.notes[row % Self.notes.count]
      session.noteAttributeWrite(entity: SnapshotFixture.trip, row: row, slot: 0)
      session.noteAttributeWrite(entity: SnapshotFixture.trip, row: row, slot: 2)
    }
    try session.save()
    return (store, names.count)
  }

  @Test("the file is the same whether long values are held out of line or not; it reads back")
  func roundTrip() throws {
    let (lowered, rows) = try store(inlineLimit: 4)
    let file = SnapshotWriter.encode(lowered.version)
    // The decoded store holds every value inline (the real limit): it writes the same file.
    let decoded = try SnapshotReader.decode(file, path: "long.mgs")
    #expect(SnapshotWriter.encode(decoded) == file)
    let names = decoded.tables[SnapshotFixture.trip].column(0, as: String.self)
    let notes = decoded.tables[SnapshotFixture.trip].column(2, as: String?.self)
    #expect((0..<rows).map { names[$0] } == (0..<rows).map { Self.names[$0 % Self.names.count] })
    #expect((0..<rows).map { notes[$0] } == (0..<rows).map { Self.notes[$0 % Self.notes.count] })
    #expect(
      try SnapshotWriter.checkedEncode(lowered.version, path: "long.mgs") == file)
  }

  @Test("a column read with a lowered limit holds long values out of line and writes them back")
  func decodeOutOfLine() throws {
    let count = StringChunk.capacity + 300
    let values: [String?] = (0..<count).map { row in
      row % 5 == 0 ? nil : row % 3 == 0 ? "row \(row), long enough" : "r\(row % 10)"
    }
    let source = Column<String?>()
    source.grow(to: count)
    for row in 0..<count { source[row] = values[row] }
    var writer = ByteWriter()
    source.encode(into: &writer)
    let target = Column<String?>()
    target.stringStorage.inlineLimit = 8
    try writer.bytes.withUnsafeBytes { bytes in
      var reader = ByteReader(bytes, fileOffset: 0, path: "column", section: "test")
      try target.decode(from: &reader)
      #expect(reader.isAtEnd)
    }
    #expect((0..<count).map { target[$0] } == values)
    let chunk = target.stringStorage.chunk(0)
    #expect(chunk.isOutOfLine(3) && !chunk.isOutOfLine(1) && !chunk.isOutOfLine(0))
    // The arena holds only the short values: the reservation for the long ones was returned.
    #expect(chunk.byteCapacity == chunk.used)
    var again = ByteWriter()
    target.encode(into: &again)
    #expect(again.bytes == writer.bytes)
  }
}
