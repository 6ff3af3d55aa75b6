import ModelGraph
import Testing

/// Every kind of change two contexts can make to the same objects: what merges, what conflicts.
@Suite("Concurrency: conflicts between two contexts' saves")
struct ConflictDetectionTests {
  @Test(
    "the same attribute changed by both: a conflict naming both values; nothing is saved")
  func attribute() throws {
    let fixture = try ConflictFixture()
    let first = fixture.context()
    let second = fixture.context()
    try first.trip("T1").note = "first"
    try second.trip("T1").note = "second"
    try second.trip("T2").visits = 9
    try first.save()

    let error = #expect(throws: ModelError.self) { try second.save() }
    #expect(error?.code == .conflict)
    let conflict = try #require(error?.conflicts.first)
    #expect(error?.conflicts.count == 1)
    #expect(conflict.kind == .attribute)
    #expect(conflict.entity == "CCTrip")
    #expect(conflict.property == "note")
    #expect(conflict.mine == .string("second"))
    #expect(conflict.theirs == .string("first"))
    #expect("\(conflict)".contains("changed here to \"second\" and elsewhere to \"first\""))
    #expect(second.hasChanges)
    let fresh = ModelContext(fixture.container)
    #expect(try fresh.trip("T1").note == "first")
    #expect(try fresh.trip("T2").visits == 0)
  }

  @Test(
    "different attributes of one object merge; the same value written by both conflicts")
  func differentAttributes() throws {
    let fixture = try ConflictFixture()
    let first = fixture.context()
    let second = fixture.context()
    try first.trip("T1").note = "noted"
    try first.trip("T2").visits += 1
    try second.trip("T1").visits = 3
    try second.trip("T2").visits += 1
    try first.save()
    #expect(second.refusedConflicts() == [.attribute])
    second.rollback()
    try second.trip("T1").visits = 3
    try second.save()
    let fresh = ModelContext(fixture.container)
    #expect(try fresh.trip("T1").note == "noted")
    #expect(try fresh.trip("T1").visits == 3)
    #expect(try fresh.trip("T2").visits == 1)
  }

  @Test(
    "a to-one set by both to different objects conflicts; to the same object it merges")
  func toOne() throws {
    let fixture = try ConflictFixture()
    let first = fixture.context()
    let second = fixture.context()
    try first.stop("x").trip = try first.trip("T2")
    try second.stop("x").trip = try second.trip("T3")
    try second.stop("y").trip = try second.trip("T2")
    try first.save()
    let error = #expect(throws: ModelError.self) { try second.save() }
    #expect(error?.conflicts.map(\.kind) == [.relationship])
    #expect(error?.conflicts.first?.property == "trip")
    #expect(error?.conflicts.first?.myTarget != error?.conflicts.first?.theirTarget)

    let third = fixture.context()
    let fourth = fixture.context()
    try third.stop("z").trip = try third.trip("T3")
    try fourth.stop("z").trip = try fourth.trip("T3")
    try third.save()
    try fourth.save()
    #expect(try fixture.layout() == ["T1": ["y"], "T2": ["x"], "T3": ["z"]])
    #expect(graphViolations(fixture.container).isEmpty)
  }

  @Test(
    "to-many: different objects added and removed by both merge")
  func toManyCommutes() throws {
    let fixture = try ConflictFixture()
    let first = fixture.context()
    let second = fixture.context()
    try first.trip("T1").stops.append(CCStop(name: "a"))
    try second.trip("T1").stops.append(CCStop(name: "b"))
    let x = try second.stop("x")
    try second.trip("T1").stops.removeAll { $0 === x }
    try second.trip("T3").stops.append(x)
    try first.save()
    try second.save()
    #expect(try fixture.layout() == ["T1": ["a", "b", "y"], "T2": ["z"], "T3": ["x"]])
    #expect(graphViolations(fixture.container).isEmpty)
  }

  @Test(
    "an update of an object deleted elsewhere conflicts; so does deleting one changed elsewhere")
  func deleteAgainstUpdate() throws {
    let fixture = try ConflictFixture()
    let deleter = fixture.context()
    let updater = fixture.context()
    deleter.delete(try deleter.trip("T3"))
    try updater.trip("T3").visits = 1
    try deleter.save()
    #expect(updater.refusedConflicts() == [.changedDeletedObject])

    let second = try ConflictFixture()
    let updaterFirst = second.context()
    let deleterLater = second.context()
    try updaterFirst.trip("T3").visits = 1
    deleterLater.delete(try deleterLater.trip("T3"))
    try updaterFirst.save()
    #expect(deleterLater.refusedConflicts() == [.deletedChangedObject])
    #expect(try second.layout().keys.sorted() == ["T1", "T2", "T3"])
  }

  @Test("a cascade over a stop changed elsewhere conflicts; so does one over a stop added since")
  func cascadeAgainstUpdate() throws {
    let fixture = try ConflictFixture()
    let renamer = fixture.context()
    let deleter = fixture.context()
    try renamer.stop("x").name = "x2"
    deleter.delete(try deleter.trip("T1"))
    try renamer.save()
    #expect(deleter.refusedConflicts() == [.deletedChangedObject])

    let second = try ConflictFixture()
    let adder = second.context()
    let cascader = second.context()
    try adder.trip("T2").stops.append(CCStop(name: "new"))
    cascader.delete(try cascader.trip("T2"))
    try adder.save()
    #expect(cascader.refusedConflicts() == [.deletedChangedObject])
    #expect(try second.layout()["T2"] == ["new", "z"])
    #expect(graphViolations(second.container).isEmpty)
  }
}
