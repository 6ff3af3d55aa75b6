import Foundation
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

  @Test("a subscriber with an interest hears only of saves touching its entities, each once")
  func interestFiltersDelivery() throws {
    let store = try Fixture.makeStore()
    let business = Versions()
    let open = Versions()
    let all = Versions()
    _ = store.subscribe(touching: [Fixture.business]) { business.add($0.version) }
    _ = store.subscribe(touching: [], orFrom: Fixture.personal) { open.add($0.version) }
    _ = store.subscribe { all.add($0.version) }
    let session = Session(store: store)

    _ = session.insert(entity: Fixture.trip, name: "a")
    try session.save()
    let tripOnly = store.version.number
    _ = session.insert(entity: Fixture.business, name: "b")
    _ = session.insert(entity: Fixture.trip, name: "c")
    try session.save()
    let businessAndTrip = store.version.number
    _ = session.insert(entity: Fixture.personal, name: "d")
    _ = session.insert(entity: Fixture.business, name: "e")
    try session.save()
    let personalAndBusiness = store.version.number

    #expect(all.values == [tripOnly, businessAndTrip, personalAndBusiness])
    #expect(business.values == [businessAndTrip, personalAndBusiness])
    #expect(open.values == [personalAndBusiness])
  }
}

/// The versions a subscriber received, in order.
private final class Versions: @unchecked Sendable {
  // @unchecked Sendable: `list` is only reached under `lock`.
  private let lock = NSLock()
  private var list: [UInt64] = []

  func add(_ version: UInt64) { lock.withLock { list.append(version) } }
  var values: [UInt64] { lock.withLock { list } }
}
