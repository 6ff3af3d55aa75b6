import Testing

@testable import ModelGraphCore

/// Compound unique constraints through their attributes' hash indexes against the scan they
/// replaced, on seeded random edits.
@Suite("Graph rules: compound unique constraints found through hash indexes")
struct CompoundIndexDifferentialTests {
  static let seat = 0
  static let window = 1
  static let slots = [0, 1]

  static func makeStore() throws -> Store {
    let store = Store()
    try store.register([
      EntityDescription(
        name: "Seat",
        attributes: [
          AttributeDescription(name: "row", valueType: .int),
          AttributeDescription(name: "letter", valueType: .string, isOptional: true),
          AttributeDescription(name: "price", valueType: .int),
        ],
        uniqueConstraints: [["row", "letter"]]),
      EntityDescription(name: "WindowSeat", parent: "Seat"),
    ])
    return store
  }

  @Test("duplicates and upsert matches agree with the scan", arguments: [11 as UInt64, 12, 13])
  func agreesWithScan(seed: UInt64) throws {
    let store = try Self.makeStore()
    let sessions = [Session(store: store), Session(store: store)]
    var random = QueryRandom(seed: seed)
    var keys: [ObjectKey] = []
    let scope = [Self.seat, Self.window]
    for step in 0..<400 {
      let session = sessions[Int.random(in: 0..<2, using: &random)]
      switch Int.random(in: 0..<10, using: &random) {
      case 0..<4:
        let key = session.insert(entity: Bool.random(using: &random) ? Self.seat : Self.window)
        session.set(Int64.random(in: 0..<8, using: &random), slot: 0, of: key)
        let letter: String? =
          Int.random(in: 0..<5, using: &random) > 0
          ? ["A", "B", "C"].randomElement(using: &random) : nil
        session.set(letter, slot: 1, of: key)
        session.set(Int64(step), slot: 2, of: key)
        keys.append(key)
      case 4..<6:
        if let key = keys.randomElement(using: &random), session.contains(key) {
          session.set(Int64.random(in: 0..<8, using: &random), slot: 0, of: key)
        }
      case 6:
        if let key = keys.randomElement(using: &random) { session.delete(key) }
      case 7..<9:
        _ = try? session.save(resolving: { _ in .keepMine })
      default:
        session.rollback()
      }
      var candidates: [(table: Int, row: Int)] = []
      for (position, entity) in scope.enumerated() {
        session.table(entity).forEachLiveRow { candidates.append((position, $0)) }
      }
      let tables = scope.map { session.table($0) }
      let scanned = Table.compoundDuplicates(
        slots: Self.slots, in: tables, candidates: candidates)
      let indexed = try #require(
        session.indexedCompoundDuplicates(
          slots: Self.slots, scope: scope, candidates: candidates))
      #expect(
        indexed.map { "\($0.table):\($0.row)=\($0.value)" }
          == scanned.map { "\($0.table):\($0.row)=\($0.value)" }, "step \(step)")

      let excluded = Set(keys.filter { _ in Bool.random(using: &random) })
      let rule = UniqueConstraint(declaringEntity: Self.seat, slots: Self.slots)
      let live = candidates.map { candidate in
        ObjectKey(
          entity: scope[candidate.table], row: candidate.row,
          generation: tables[candidate.table].generation(of: candidate.row))
      }
      let matched = session.uniqueMatches(for: rule, candidates: live, excluded: excluded)
      // The scan's answer: the first live row, by table then row, outside `excluded`, with
      // the same non-nil values.
      let expected = live.map { candidate -> ObjectKey? in
        guard
          let values = session.table(Int(candidate.entity)).compoundValue(
            slots: Self.slots, row: Int(candidate.row))
        else { return nil }
        return live.first { other in
          !excluded.contains(other)
            && session.table(Int(other.entity)).compoundValue(
              slots: Self.slots, row: Int(other.row)) == values
        }
      }
      #expect(matched == expected, "step \(step)")
    }
  }
}
