import Testing

@testable import ModelGraphCore

@Suite("Store: carrying a built index never waits for the store's lock")
struct IndexCarryLockTests {
  @Test("withLockIfAvailable runs only when the lock is free, also on the thread that holds it")
  func tryLock() {
    let locked = Locked(0)
    let inside = locked.withLock { _ in
      locked.withLockIfAvailable { value -> Int in
        value += 1
        return value
      }
    }
    #expect(inside == nil)
    let free = locked.withLockIfAvailable { value -> Int in
      value += 1
      return value
    }
    #expect(free == 1)
  }

  @Test("an index built by a query run under the store's lock returns without carrying it")
  func carryUnderStoreLock() throws {
    let store = try Fixture.makeStore()
    let writer = Session(store: store)
    _ = writer.insert(entity: Fixture.trip, name: "a", days: 1)
    try writer.save()
    let table = store.version.tables[Fixture.trip]
    // Before, the carry took the store's lock and waited for ever on this thread's own hold.
    let returned = store.state.withLock { _ in
      store.carryIndexes(builtFor: table)
      return true
    }
    #expect(returned)
  }
}
