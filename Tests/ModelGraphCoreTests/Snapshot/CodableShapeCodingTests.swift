import Foundation
import Testing

@testable import ModelGraphCore

@Suite("Codable shapes in the schema: snapshot format 5 and the journal")
struct CodableShapeCodingTests {
  private let shape = CodableShape.object([
    .init(name: "city", shape: .value(.string)),
    .init(
      name: "geo", shape: .object([.init(name: "lat", shape: .value(.double))]), isOptional: true),
    .init(name: "floors", shape: .array(.value(.int))),
    .init(name: "extra", shape: .unknown),
  ])

  @Test("format 5 keeps the shapes; format 4 has none")
  func snapshotKeepsShapes() throws {
    let store = try SnapshotFixture.makeStore()
    store.record(codableShapes: ["Place": shape])
    #expect(store.catalog.codableShapes == ["Place": shape])
    let current = try SnapshotReader.decode(SnapshotWriter.encode(store.version), path: "5.mgs")
    #expect(current.catalog.codableShapes == ["Place": shape])
    #expect(shape.description == "{city: String, geo: {lat: Double}?, floors: [Int], extra: ?}")
    let old = try SnapshotReader.decode(
      SnapshotWriter.encode(store.version, formatVersion: 4), path: "4.mgs")
    #expect(old.catalog.codableShapes.isEmpty)
  }

  @Test("a shape recorded after the entities reaches the journal with the next save")
  func journalCarriesShapes() throws {
    let files = StoreFiles(path: "/sim/s.mgs", io: SimFS())
    let first = try JournalFixture.open(files)
    try JournalFixture.save(step: 0, store: first.store)
    first.store.record(codableShapes: ["Place": shape])
    try JournalFixture.save(step: 1, store: first.store)
    first.journal.close()
    let recovered = try files.recover()
    #expect(recovered.report.replayedRecords == 2)
    #expect(recovered.version?.catalog.codableShapes == ["Place": shape])
  }

  @Test("a damaged shape is a SnapshotError at its offset")
  func damagedShape() throws {
    let store = try SnapshotFixture.makeStore()
    store.record(codableShapes: ["P": .value(.string)])
    var forge = SnapshotForge(SnapshotWriter.encode(store.version))
    let schema = try #require(forge.blocks.firstIndex { $0.kind == 1 })
    // The schema ends with: shape count (8), name length (4), "P", tag 0, value type tag 4.
    let end = forge.blocks[schema].payload.count
    forge.blocks[schema].payload[end - 2] = 7
    let bad = forge.assemble()
    #expect {
      _ = try SnapshotReader.decode(bad, path: "bad.mgs")
    } throws: { error in
      guard let error = error as? SnapshotError else { return false }
      return error.code == .malformed && error.section == "schema"
        && error.offset == forge.offset(ofBlock: schema) + 12 + end - 2
        && error.message.contains("unknown Codable shape tag 7")
    }
  }
}
