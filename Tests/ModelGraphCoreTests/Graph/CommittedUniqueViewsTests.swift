import Foundation
import Testing

@testable import ModelGraphCore

/// The committed index views a session's small saves check uniqueness against: found once per
/// table version, kept for the tables a move keeps, and let go of for the others.
@Suite("Committed unique views: one lookup per table version, none kept past it")
struct CommittedUniqueViewsTests {
  /// A view that answers nothing; only its identity matters here.
  final class StubView: TableIndex {
    let definition = IndexDefinition(.hash, on: "name", isUnique: true)
    var count: Int { 0 }
    func rows(equalTo values: [ModelValue]) -> [Int32]? { [] }
    func count(equalTo values: [ModelValue]) -> Int? { 0 }
    func count(in range: IndexValueRange) -> Int? { nil }
    func rows(in range: IndexValueRange) -> [Int32]? { nil }
    func cursor(in range: IndexValueRange, ascending: Bool) -> IndexCursor? { nil }
    func mergeCursor(with others: [any TableIndex], ranges: [IndexValueRange], ascending: Bool)
      -> MergeCursor?
    { nil }
  }

  /// The tables of the trip hierarchy in the store's version after saving one new object of
  /// each entity in `entities`.
  private func save(_ session: Session, inserting entities: [Int]) throws -> [Table] {
    for entity in entities { _ = session.insert(entity: entity, name: "x", days: 1) }
    try session.save()
    return session.store.version.tables
  }

  @Test("a view is found once per table version and kept while the version's table is kept")
  func foundOncePerVersion() throws {
    let session = Session(store: try Fixture.makeStore())
    let scope = [Fixture.trip, Fixture.business, Fixture.personal]
    let views = CommittedUniqueViews()
    var finds: [Int] = []
    func lookUp(_ tables: [Table]) -> [ObjectIdentifier]? {
      views.views(slot: Fixture.name, scope: scope, tables: tables) { position in
        finds.append(position)
        return StubView()
      }?.map { ObjectIdentifier($0) }
    }
    let first = try save(session, inserting: scope)
    let found = try #require(lookUp(first))
    #expect(finds == [0, 1, 2])
    #expect(lookUp(first) == found)
    #expect(finds == [0, 1, 2])

    // Only the BusinessTrip table is replaced: its view alone is found again.
    let second = try save(session, inserting: [Fixture.business])
    views.keepOnly(second)
    let again = try #require(lookUp(second))
    #expect(finds == [0, 1, 2, 1])
    #expect(again[0] == found[0] && again[1] != found[1] && again[2] == found[2])
  }

  @Test("moving to a version forgets the views of the tables it replaced, and releases them")
  func releasesReplacedViews() throws {
    let session = Session(store: try Fixture.makeStore())
    let scope = [Fixture.trip, Fixture.business, Fixture.personal]
    let views = CommittedUniqueViews()
    let first = try save(session, inserting: scope)
    weak var replaced: StubView?
    weak var kept: StubView?
    do {
      let made = (0..<3).map { _ in StubView() }
      replaced = made[0]
      kept = made[1]
      _ = views.views(slot: Fixture.name, scope: scope, tables: first) { made[$0] }
    }
    #expect(replaced != nil && kept != nil)
    let second = try save(session, inserting: [Fixture.trip])
    views.keepOnly(second)
    #expect(replaced == nil, "the view of the replaced Trip table is let go of")
    #expect(kept != nil, "the BusinessTrip table is the same version: its view stays")
    // Back on the first version's tables, the Trip view is looked up again.
    var finds: [Int] = []
    _ = views.views(slot: Fixture.name, scope: scope, tables: first) {
      finds.append($0)
      return StubView()
    }
    #expect(finds == [0])
  }

  @Test("a check with another scope for the same attribute starts its entry over")
  func otherScope() throws {
    let session = Session(store: try Fixture.makeStore())
    let tables = try save(session, inserting: [Fixture.trip])
    let views = CommittedUniqueViews()
    var finds = 0
    let find: (Int) -> (any TableIndex)? = { _ in
      finds += 1
      return StubView()
    }
    _ = views.views(
      slot: Fixture.name, scope: [Fixture.trip, Fixture.business], tables: tables, find: find)
    _ = views.views(slot: Fixture.name, scope: [Fixture.trip], tables: tables, find: find)
    #expect(finds == 3)
    // A lookup that finds no view answers nothing, and the next one finds the views again.
    #expect(
      views.views(slot: Fixture.days, scope: [Fixture.trip], tables: tables) { _ in nil } == nil)
    _ = views.views(slot: Fixture.days, scope: [Fixture.trip], tables: tables, find: find)
    #expect(finds == 4)
  }
}
