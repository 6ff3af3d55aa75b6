import Testing

@testable import ModelGraphCore

/// Uniqueness through the hash index against the scan it replaced, on seeded random edits.
@Suite("Graph rules: unique attributes found through their hash index")
struct UniqueIndexDifferentialTests {
  static let tag = 0
  static let special = 1

  static func makeStore() throws -> Store {
    let store = Store()
    try store.register([
      EntityDescription(
        name: "Tag",
        attributes: [
          AttributeDescription(name: "code", valueType: .int, isUnique: true),
          AttributeDescription(name: "label", valueType: .string, isOptional: true, isUnique: true),
        ]),
      EntityDescription(name: "SpecialTag", parent: "Tag"),
    ])
    return store
  }

  /// Every live row of the hierarchy, as (position in the scope, row).
  static func liveRows(_ session: Session) -> [(table: Int, row: Int)] {
    var rows: [(table: Int, row: Int)] = []
    for (position, entity) in [tag, special].enumerated() {
      session.table(entity).forEachLiveRow { rows.append((position, $0)) }
    }
    return rows
  }

  @Test("duplicates and upsert matches agree with the scan", arguments: [5 as UInt64, 6, 7])
  func agreesWithScan(seed: UInt64) throws {
    let store = try Self.makeStore()
    let sessions = [Session(store: store), Session(store: store)]
    var random = QueryRandom(seed: seed)
    var keys: [ObjectKey] = []
    let scope = [Self.tag, Self.special]
    for step in 0..<400 {
      let session = sessions[Int.random(in: 0..<2, using: &random)]
      switch Int.random(in: 0..<10, using: &random) {
      case 0..<4:
        let key = session.insert(entity: Bool.random(using: &random) ? Self.tag : Self.special)
        session.set(Int64.random(in: 0..<60, using: &random), slot: 0, of: key)
        let label: String? =
          Bool.random(using: &random) ? "l\(Int.random(in: 0..<40, using: &random))" : nil
        session.set(label, slot: 1, of: key)
        keys.append(key)
      case 4..<6:
        if let key = keys.randomElement(using: &random), session.contains(key) {
          session.set(Int64.random(in: 0..<60, using: &random), slot: 0, of: key)
        }
      case 6:
        if let key = keys.randomElement(using: &random) { session.delete(key) }
      case 9 where step % 50 == 9:
        // More rows than a small save writes.
        for _ in 0..<(Session.fewWritesBound + 6) {
          let key = session.insert(entity: Self.special)
          session.set(Int64.random(in: 0..<600, using: &random), slot: 0, of: key)
          keys.append(key)
        }
      case 7..<9:
        _ = try? session.save(resolving: { _ in .keepMine })
      default:
        session.rollback()
      }
      for slot in [0, 1] {
        let candidates = Self.liveRows(session)
        let tables = scope.map { session.table($0) }
        let scanned = tables[0].attributeColumns[slot].duplicates(
          slot: slot, in: tables, candidates: candidates)
        let indexed = try #require(
          session.indexedDuplicates(slot: slot, scope: scope, candidates: candidates))
        #expect(
          indexed.map { "\($0.table):\($0.row)=\($0.value)" }
            == scanned.map { "\($0.table):\($0.row)=\($0.value)" }, "step \(step) slot \(slot)")
        // The overlaid views, which a session that wrote many rows uses.
        let viewed = try #require(
          session.viewDuplicates(slot: slot, scope: scope, candidates: candidates))
        #expect(
          viewed.map { "\($0.table):\($0.row)=\($0.value)" }
            == scanned.map { "\($0.table):\($0.row)=\($0.value)" }, "step \(step) slot \(slot)")
        let excluded = Set(keys.filter { _ in Bool.random(using: &random) })
        let scannedMatches = tables[0].attributeColumns[slot].matches(
          slot: slot, in: tables, candidates: candidates, excluded: excluded)
        let indexedMatches = try #require(
          session.indexedMatches(
            slot: slot, scope: scope, candidates: candidates, excluded: excluded))
        #expect(
          indexedMatches.map { $0.map { "\($0.table):\($0.row)" } }
            == scannedMatches.map { $0.map { "\($0.table):\($0.row)" } },
          "step \(step) slot \(slot)")
      }
    }
  }
}
