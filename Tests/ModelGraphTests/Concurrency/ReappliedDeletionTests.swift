import ModelGraph
import Testing

/// A deletion that a merge policy lets go ahead over an object changed elsewhere runs its
/// delete rules again over what the object is related to now: that must be the merged state,
/// with this context's own moves, not the other save's lists alone. Found by
/// `ModelBasedContextsTests` (merge policies, seed 1).
@Suite("Concurrency: a deletion reapplied by a merge policy")
struct ReappliedDeletionTests {
  @Test(
    "a stop moved out of a trip before deleting it survives when the deletion is reapplied",
    arguments: [MergePolicyChoice.lastWriterWins, .storeWins])
  func movedOutFirst(policy: MergePolicyChoice) throws {
    let fixture = try ConflictFixture()
    let deleter = fixture.context(policy.policy)
    let other = fixture.context()
    try deleter.stop("x").trip = try deleter.trip("T2")
    deleter.delete(try deleter.trip("T1"))
    try other.trip("T1").note = "changed"
    try other.save()
    try deleter.save()
    #expect(try fixture.layout() == ["T2": ["x", "z"], "T3": []])
    #expect(try fixture.stopNames() == ["x", "z"])
    #expect(graphViolations(fixture.container).isEmpty)
  }
}
