import ModelGraph
import Testing

/// The small cases of the concurrency issue, each once corrupting the graph.
@Suite("Concurrency: relationship edits replayed onto newer saves")
struct RebaseRegressionTests {
  @Test("a stop moved while another context deleted a sibling is listed by one trip only")
  func moveAfterSiblingDeleted() throws {
    let fixture = try ConflictFixture()
    let first = fixture.context()
    let second = fixture.context()
    first.delete(try first.stop("x"))
    try second.stop("y").trip = try second.trip("T2")
    try first.save()
    try second.save()
    #expect(try fixture.layout() == ["T1": [], "T2": ["y", "z"], "T3": []])
    #expect(try fixture.stopNames() == ["y", "z"])
    #expect(graphViolations(fixture.container).isEmpty)
  }

  @Test(
    "a new stop of a trip deleted elsewhere: refused, or cascaded away under a policy",
    arguments: [MergePolicyChoice.reject, .lastWriterWins, .storeWins])
  func newStopOfDeletedTrip(policy: MergePolicyChoice) throws {
    let fixture = try ConflictFixture()
    let deleter = fixture.context()
    let adder = fixture.context(policy.policy)
    deleter.delete(try deleter.trip("T2"))
    try adder.trip("T2").stops.append(CCStop(name: "new"))
    try deleter.save()
    if policy == .reject {
      #expect(
        Set(adder.refusedConflicts()) == [.changedDeletedObject, .referencesDeletedObject])
    } else {
      try adder.save()
    }
    #expect(try fixture.stopNames() == ["x", "y"])
    #expect(graphViolations(fixture.container).isEmpty)
  }

  @Test(
    "a saved stop moved into a trip deleted elsewhere: refused, or it stays with its trip",
    arguments: [MergePolicyChoice.reject, .lastWriterWins, .storeWins])
  func moveIntoDeletedTrip(policy: MergePolicyChoice) throws {
    let fixture = try ConflictFixture()
    let deleter = fixture.context()
    let mover = fixture.context(policy.policy)
    deleter.delete(try deleter.trip("T3"))
    try mover.stop("y").trip = try mover.trip("T3")
    try deleter.save()
    if policy == .reject {
      #expect(
        Set(mover.refusedConflicts()) == [.changedDeletedObject, .referencesDeletedObject])
    } else {
      try mover.save()
    }
    #expect(try fixture.layout() == ["T1": ["x", "y"], "T2": ["z"]])
    #expect(graphViolations(fixture.container).isEmpty)
  }

  @Test(
    "a stop moved out of a trip it deletes into one deleted elsewhere goes with its old trip",
    arguments: [MergePolicyChoice.lastWriterWins, .storeWins])
  func moveOutOfDeletedIntoDeletedElsewhere(policy: MergePolicyChoice) throws {
    let fixture = try ConflictFixture()
    let deleter = fixture.context()
    let mover = fixture.context(policy.policy)
    deleter.delete(try deleter.trip("T3"))
    try mover.stop("y").trip = try mover.trip("T3")
    mover.delete(try mover.trip("T1"))
    try deleter.save()
    try mover.save()
    #expect(try fixture.layout() == ["T2": ["z"]])
    #expect(try fixture.stopNames() == ["z"])
    #expect(graphViolations(fixture.container).isEmpty)
  }

  @Test(
    "after rollback the context reads the newest save, even if the redo inserts first")
  func rollbackMovesToNewest() throws {
    let fixture = try ConflictFixture()
    let first = fixture.context()
    let second = fixture.context()
    try first.trip("T1").visits += 1
    try second.trip("T1").visits += 1
    try first.save()
    #expect(second.refusedConflicts() == [.attribute])
    second.rollback()
    second.insert(CCTrip(name: "T4"))
    let trip = try second.trip("T1")
    #expect(trip.visits == 1)
    trip.visits += 1
    try second.save()
    #expect(try ModelContext(fixture.container).trip("T1").visits == 2)
  }

  @Test("after a refused save, rollback and redoing the change on fresh data succeeds")
  func retryAfterConflict() throws {
    let fixture = try ConflictFixture()
    let first = fixture.context()
    let second = fixture.context()
    try first.trip("T1").visits += 1
    try second.trip("T1").visits += 1
    try first.save()
    #expect(second.refusedConflicts() == [.attribute])
    second.rollback()
    try second.trip("T1").visits += 1
    try second.save()
    #expect(try ModelContext(fixture.container).trip("T1").visits == 2)
  }
}
