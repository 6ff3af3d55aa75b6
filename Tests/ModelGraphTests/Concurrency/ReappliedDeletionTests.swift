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

  /// Owner p keeps item i; q owns i and j. This context deletes p (which takes i's keeper away
  /// here) while another moves i and j into p and saves: p holds both when its deletion goes
  /// ahead, and its cascade deletes both. Found by `ModelBasedContextsTests` (moves, seed 46).
  @Test(
    "a deletion reapplied over items moved into the owner elsewhere cascades over each",
    arguments: [MergePolicyChoice.lastWriterWins, .storeWins])
  func movedInElsewhere(policy: MergePolicyChoice) throws {
    let container = try makeInMemoryContainer(MBOwner.self, MBVIPOwner.self, MBItem.self)
    let setup = ModelContext(container)
    let p = MBOwner(serial: 1, code: "p", name: "p", score: 0)
    let q = MBOwner(serial: 2, code: "q", name: "q", score: 0)
    setup.insert(p)
    setup.insert(q)
    let i = MBItem(serial: 3, label: "i", weight: 0)
    let j = MBItem(serial: 4, label: "j", weight: 0)
    q.items = [i, j]
    i.keeper = p
    try setup.save()
    let deleter = ModelContext(container)
    deleter.mergePolicy = policy.policy
    let mover = ModelContext(container)
    deleter.delete(try deleter.mbObject(MBOwner.self, 1))
    try mover.mbObject(MBItem.self, 3).owner = try mover.mbObject(MBOwner.self, 1)
    try mover.mbObject(MBItem.self, 4).owner = try mover.mbObject(MBOwner.self, 1)
    try mover.save()
    try deleter.save()
    let fresh = ModelContext(container)
    let owners = try fresh.fetch(FetchDescriptor<MBOwner>())
    #expect(owners.map { "#\($0.serial) holds \($0.items.map(\.serial))" } == ["#2 holds []"])
    let items = try fresh.fetch(FetchDescriptor<MBItem>())
    #expect(items.map { "#\($0.serial) of \(mbName($0.owner?.serial))" } == [])
  }
}

extension ModelContext {
  /// The object of the model-based test's class `type` with serial number `serial`.
  func mbObject<T: PersistentModel>(_ type: T.Type, _ serial: Int) throws -> T {
    let found: [T]
    if type == MBOwner.self {
      found = try fetch(FetchDescriptor<MBOwner>(predicate: #Predicate { $0.serial == serial }))
        .compactMap { $0 as? T }
    } else {
      found = try fetch(FetchDescriptor<MBItem>(predicate: #Predicate { $0.serial == serial }))
        .compactMap { $0 as? T }
    }
    guard let object = found.first else {
      throw ModelError(.predicateFailed, message: "no \(type) #\(serial)")
    }
    return object
  }
}
