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
}
