import Testing

@testable import ModelGraphCore

@Suite("A trial copy of a session moves while the session stays")
struct SessionTrialCopyTests {
  @Test("a trial copy rebases onto a newer version; the session keeps its base and changes")
  func sessionStays() throws {
    let store = try Fixture.makeStore()
    let setup = Session(store: store)
    let trip = setup.insert(entity: Fixture.trip, name: "trip", days: 1)
    try setup.save()
    let session = Session(store: store)
    session.set(Int64(10), slot: Fixture.days, of: trip)
    let added = session.insert(entity: Fixture.trip, name: "added")
    let other = Session(store: store)
    other.set("renamed", slot: Fixture.name, of: trip)
    try other.save()

    let trial = session.trialCopy()
    #expect(try trial.rebaseOntoLatest())
    #expect(trial.baseNumber == store.version.number)
    #expect(trial.get(String.self, slot: Fixture.name, of: trip) == "renamed")
    #expect(trial.get(Int64.self, slot: Fixture.days, of: trip) == 10)
    #expect(trial.get(String.self, slot: Fixture.name, of: added) == "added")
    #expect(session.baseNumber == store.version.number - 1)
    #expect(session.get(String.self, slot: Fixture.name, of: trip) == "trip")
    #expect(session.get(Int64.self, slot: Fixture.days, of: trip) == 10)
    #expect(session.contains(added))

    // The session's own move and save are unaffected by the copy's.
    try session.save()
    #expect(store.version.get(String.self, slot: Fixture.name, of: trip) == "renamed")
    #expect(store.version.get(Int64.self, slot: Fixture.days, of: trip) == 10)
    #expect(store.version.names(of: Fixture.trip) == ["added", "renamed"])
  }

  @Test("a trial copy's replay does not give the rows of new objects back to the store")
  func rowsStayTheSessions() throws {
    let store = try Fixture.makeStore()
    let setup = Session(store: store)
    let trip = setup.insert(entity: Fixture.trip, name: "trip", days: 1)
    try setup.save()
    let session = Session(store: store)
    session.allowsFastForward = false
    session.set(Int64(10), slot: Fixture.days, of: trip)
    // Inserted and deleted again: its row is the session's until the session moves or saves.
    let dropped = session.insert(entity: Fixture.trip, name: "dropped")
    session.delete(dropped)
    let other = Session(store: store)
    other.set("renamed", slot: Fixture.name, of: trip)
    try other.save()

    #expect(try session.trialCopy().rebaseOntoLatest())
    let elsewhere = Session(store: store)
    let inserted = elsewhere.insert(entity: Fixture.trip, name: "elsewhere")
    #expect(inserted.row != dropped.row)
    try elsewhere.save()
    try session.save()
    let next = Session(store: store)
    let first = next.insert(entity: Fixture.trip, name: "first")
    let second = next.insert(entity: Fixture.trip, name: "second")
    #expect(first.row != second.row)
    try next.save()
    #expect(store.version.names(of: Fixture.trip) == ["elsewhere", "first", "renamed", "second"])
  }

  @Test(
    "a session takes over its trial copy's move: its own tables, the copy's base and changes",
    arguments: [true, false])
  func adoptsTrial(fast: Bool) throws {
    let store = try Fixture.makeStore()
    let setup = Session(store: store)
    let trip = setup.insert(entity: Fixture.trip, name: "trip", days: 1)
    try setup.save()
    let session = Session(store: store)
    session.allowsFastForward = fast
    session.set(Int64(10), slot: Fixture.days, of: trip)
    let added = session.insert(entity: Fixture.trip, name: "added")
    let dropped = session.insert(entity: Fixture.trip, name: "dropped")
    session.delete(dropped)
    let table = session.table(Fixture.trip)
    let other = Session(store: store)
    other.set("renamed", slot: Fixture.name, of: trip)
    try other.save()

    let trial = session.trialCopy()
    #expect(try trial.rebaseOntoLatest())
    #expect(session.adopt(trial))
    #expect(session.baseNumber == store.version.number)
    #expect(session.table(Fixture.trip) === table)
    #expect(session.get(String.self, slot: Fixture.name, of: trip) == "renamed")
    #expect(session.get(Int64.self, slot: Fixture.days, of: trip) == 10)
    #expect(session.contains(added) && !session.contains(dropped))
    #expect(session.hasChanges)
    #expect(session.takeForeignChangesFlag())

    try session.save()
    #expect(store.version.names(of: Fixture.trip) == ["added", "renamed"])
    #expect(store.version.get(Int64.self, slot: Fixture.days, of: trip) == 10)
    // The dropped row went back to the store: the next save's insert may take it.
    let next = Session(store: store)
    let reused = next.insert(entity: Fixture.trip, name: "next")
    try next.save()
    #expect(store.version.names(of: Fixture.trip) == ["added", "next", "renamed"])
    if !fast { #expect(reused.row == dropped.row) }
  }

  @Test("a trial copy whose move wrote a relationship back is not taken over")
  func refusesToldEdits() throws {
    let session = try GraphFixture.makeSession()
    let store = session.store
    let setup = Session(store: store)
    let kept = setup.insertDepartment("kept")
    let closed = setup.insertDepartment("closed")
    let person = setup.insertEmployee("ada", badge: 1)
    setup.setRelationship(of: person, slot: 0, to: [kept])
    try setup.save()
    let moving = Session(store: store)
    moving.setRelationship(of: person, slot: 0, to: [closed])
    let other = Session(store: store)
    _ = other.deleteApplyingRules(closed)
    try other.save()

    let base = moving.baseNumber
    let trial = moving.trialCopy()
    // The move into a department deleted since is dropped: the employee's department, and
    // the kept department's employees, are written back, which a context must hear of.
    #expect(try trial.rebaseOntoLatest { _ in .keepMine })
    #expect(trial.relatedKeys(of: person, slot: 0) == [kept])
    #expect(!moving.adopt(trial))
    #expect(moving.baseNumber == base)
    #expect(moving.relatedKeys(of: person, slot: 0) == [closed])
    #expect(try moving.rebaseOntoLatest { _ in .keepMine })
    #expect(moving.relatedKeys(of: person, slot: 0) == [kept])
  }
}
