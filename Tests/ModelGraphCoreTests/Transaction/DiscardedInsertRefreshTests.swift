import Testing

@testable import ModelGraphCore

@Suite("Session: an object inserted and deleted before a refresh leaves nothing behind")
struct DiscardedInsertRefreshTests {
  @Test("a refresh past a discarded insert, then a save, publishes only what is live")
  func refreshAfterDiscardedInsert() throws {
    let store = try Fixture.makeStore()
    let session = Session(store: store)
    session.recordsChanges = true
    let discarded = session.insert(entity: Fixture.trip, name: "Gone")
    session.delete(discarded)
    #expect(!session.hasChanges)

    // Another session saves, so the first moves onto a newer version with fewer rows in its
    // table than the row it reserved for the discarded object.
    let other = Session(store: store)
    let kept = other.insert(entity: Fixture.business, name: "Other")
    try other.save()
    session.refreshIfClean()
    #expect(session.base.number == store.version.number)

    let fresh = session.insert(entity: Fixture.trip, name: "Fresh", days: 2)
    try session.save()
    let version = store.version
    #expect(version.contains(fresh))
    #expect(version.contains(kept))
    #expect(!version.contains(discarded))
    #expect(version.names(of: Fixture.trip) == ["Fresh"])
    let change = try #require(session.lastChange)
    #expect(change.inserted.count == 1)
  }

  @Test("a rebase past a discarded insert, then a save, publishes only what is live")
  func rebaseAfterDiscardedInsert() throws {
    let store = try Fixture.makeStore()
    let session = Session(store: store)
    session.recordsChanges = true
    let live = session.insert(entity: Fixture.trip, name: "Live")
    let discarded = session.insert(entity: Fixture.trip, name: "Gone")
    session.delete(discarded)

    let other = Session(store: store)
    _ = other.insert(entity: Fixture.business, name: "Other")
    try other.save()
    try session.save()  // rebases onto the other session's save first
    #expect(store.version.contains(live))
    #expect(!store.version.contains(discarded))
    #expect(store.version.names(of: Fixture.trip) == ["Live"])
    let change = try #require(session.lastChange)
    #expect(change.inserted.count == 1)

    // The discarded row went back to the store: a later insert may take it.
    let next = session.insert(entity: Fixture.trip, name: "Next")
    try session.save()
    #expect(store.version.names(of: Fixture.trip).sorted() == ["Live", "Next"])
    #expect(store.version.contains(next))
  }

  @Test("a discarded insert's row, reused by another session, is not reported as this one's")
  func reusedRowIsNotReported() throws {
    let store = try Fixture.makeStore()
    let session = Session(store: store)
    session.recordsChanges = true
    let discarded = session.insert(entity: Fixture.trip, name: "Gone")
    session.delete(discarded)
    session.rollback()  // gives the row back to the store

    let other = Session(store: store)
    _ = other.insert(entity: Fixture.trip, name: "Theirs")
    try other.save()
    let again = session.insert(entity: Fixture.trip, name: "Again")
    session.delete(again)
    session.refreshIfClean()
    _ = session.insert(entity: Fixture.business, name: "Mine")
    try session.save()
    let change = try #require(session.lastChange)
    #expect(change.inserted.count == 1)
    #expect(store.version.names(of: Fixture.trip) == ["Theirs"])
    #expect(store.version.names(of: Fixture.business) == ["Mine"])
  }
}
