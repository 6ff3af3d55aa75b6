import ModelGraph
import Testing

/// A save replayed onto another context's save (a rebase that cannot fast-forward, since both
/// wrote the same object) keeps the order this context gave a to-many relationship that
/// nobody else changed. Found by `ModelBasedContextsTests` (seed 8).
@Suite("Concurrency: a to-many's order across a rebase")
struct ToManyOrderRebaseTests {
  @Test("a to-many reordered here keeps its order when the save replays onto another's save")
  func reordered() throws {
    let fixture = try ConflictFixture()
    let reorderer = fixture.context()
    let other = fixture.context()
    let trip = try reorderer.trip("T1")
    trip.stops = trip.stops.reversed()
    try other.trip("T1").note = "noted"
    try other.save()
    try reorderer.save()
    #expect(try reorderer.trip("T1").stops.map(\.name) == ["y", "x"])
    let fresh = ModelContext(fixture.container)
    #expect(try fresh.trip("T1").stops.map(\.name) == ["y", "x"])
    #expect(try fresh.trip("T1").note == "noted")
    #expect(graphViolations(fixture.container).isEmpty)
  }

  @Test("a member removed and appended again here stays last after the replay")
  func appendedAgain() throws {
    let fixture = try ConflictFixture()
    let mover = fixture.context()
    let other = fixture.context()
    let trip = try mover.trip("T1")
    let x = try mover.stop("x")
    x.trip = nil
    trip.stops.append(CCStop(name: "new"))
    trip.stops.append(x)
    #expect(trip.stops.map(\.name) == ["y", "new", "x"])
    try other.trip("T1").visits = 4
    try other.save()
    try mover.save()
    #expect(try mover.trip("T1").stops.map(\.name) == ["y", "new", "x"])
    let fresh = ModelContext(fixture.container)
    #expect(try fresh.trip("T1").stops.map(\.name) == ["y", "new", "x"])
    #expect(try fresh.trip("T1").visits == 4)
    #expect(graphViolations(fixture.container).isEmpty)
  }

  @Test("both contexts adding to one to-many still merge: theirs first, then mine")
  func bothAdded() throws {
    let fixture = try ConflictFixture()
    let first = fixture.context()
    let second = fixture.context()
    try first.trip("T1").stops.append(CCStop(name: "a"))
    try second.trip("T1").stops.append(CCStop(name: "b"))
    try first.save()
    try second.save()
    let fresh = ModelContext(fixture.container)
    #expect(try fresh.trip("T1").stops.map(\.name) == ["x", "y", "a", "b"])
  }
}
