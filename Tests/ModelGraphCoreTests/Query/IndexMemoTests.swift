import Foundation
import Testing

@testable import ModelGraphCore

/// A session remembers the indexes its queries found, and never answers from an index of a
/// table version it no longer reads.
@Suite("Index memo: a session's indexes across store versions")
struct IndexMemoTests {
  static let indexes: [[IndexDefinition]] = [
    [IndexDefinition(.ordered, on: "days"), IndexDefinition(.hash, on: "note")],
    [IndexDefinition(.ordered, on: "days"), IndexDefinition(.hash, on: "note")],
    [IndexDefinition(.ordered, on: "days"), IndexDefinition(.hash, on: "note")],
  ]

  func keys(_ session: Session, _ request: QueryRequest) throws -> [ObjectKey] {
    let source = QuerySource(session: session, includePendingChanges: true) {
      Self.indexes[$0.index]
    }
    return try QueryPlanner(source: source).plan(request).keys()
  }

  @Test("a query after another session's save sees its objects, through the index")
  func refreshedIndex() throws {
    let store = try Fixture.makeStore()
    let reader = Session(store: store)
    let writer = Session(store: store)
    for day in 0..<20 {
      _ = writer.insert(entity: Fixture.trip, name: "t\(day)", days: Int64(day))
    }
    try writer.save()
    reader.refreshIfClean()
    let byDay = QueryRequest(
      entity: Fixture.trip, predicate: .comparison(.attribute("days"), .equal, .constant(.int(7))))
    let byNote = QueryRequest(
      entity: Fixture.trip,
      predicate: .comparison(.attribute("note"), .equal, .constant(.string("late"))))
    #expect(try keys(reader, byDay).count == 1)
    #expect(try keys(reader, byNote).isEmpty)

    let added = writer.insert(entity: Fixture.business, name: "b7", days: 7)
    writer.set(String?("late"), slot: Fixture.note, of: added)
    let first = try keys(reader, byDay)[0]
    writer.delete(first)
    try writer.save()

    // The reader's memo holds the indexes of the version it read; moving on forgets them.
    reader.refreshIfClean()
    #expect(try keys(reader, byDay) == [added])
    #expect(try keys(reader, byNote) == [added])
  }

  @Test("pending changes are laid over the remembered index of the committed version")
  func pendingChanges() throws {
    let store = try Fixture.makeStore()
    let session = Session(store: store)
    let kept = session.insert(entity: Fixture.trip, name: "a", days: 3)
    let moved = session.insert(entity: Fixture.trip, name: "b", days: 3)
    try session.save()
    let request = QueryRequest(
      entity: Fixture.trip, predicate: .comparison(.attribute("days"), .equal, .constant(.int(3))))
    #expect(Set(try keys(session, request)) == [kept, moved])
    session.set(Int64(4), slot: Fixture.days, of: moved)
    #expect(try keys(session, request) == [kept])
    session.rollback()
    #expect(Set(try keys(session, request)) == [kept, moved])
  }
}
