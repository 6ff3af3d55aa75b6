import Testing

@testable import ModelGraphCore

@Suite("Store change subscriptions")
struct ChangeHubTests {
  @Test("a released stream unsubscribes; a cancelled iteration does too")
  func subscriptionsEnd() async throws {
    let store = try Fixture.makeStore()
    var stream: AsyncStream<CommittedChange>? = store.changes()
    #expect(store.changeHub.isObserved)
    stream = nil
    #expect(stream == nil && !store.changeHub.isObserved)

    let cancelled = store.changes()
    let waiting = Task {
      for await _ in cancelled {}
    }
    waiting.cancel()
    await waiting.value
    #expect(!store.changeHub.isObserved)
  }

  @Test("with no subscriber and no history, a save builds no change unless asked to")
  func unobservedSavesBuildNothing() throws {
    let store = try Fixture.makeStore()
    store.history.retention = .init(transactions: 0)
    let session = Session(store: store)
    _ = session.insert(entity: Fixture.trip, name: "a")
    try session.save()
    #expect(session.lastChange == nil)
    session.recordsChanges = true
    session.author = "probe"
    let key = session.insert(entity: Fixture.trip, name: "b")
    try session.save()
    let change = try #require(session.lastChange)
    #expect(change.version == store.version.number && change.author == "probe")
    #expect(change.inserted.map(\.row) == [key.row])
    #expect(store.history.changes(after: 0).isEmpty)
  }

  @Test("the history keeps every session's saves in commit order")
  func historyRecordsSessions() throws {
    let store = try Fixture.makeStore()
    let first = Session(store: store)
    let second = Session(store: store)
    _ = first.insert(entity: Fixture.trip, name: "a")
    try first.save()
    _ = second.insert(entity: Fixture.trip, name: "b")
    try second.save()
    let versions = store.history.changes(after: 0).map(\.version)
    #expect(versions == [store.version.number - 1, store.version.number])
  }
}
