import Testing

@testable import ModelGraphCore

/// A session asks the store's visible mark, without the lock, whether there is a newer version
/// to refresh to: every change of the visible version (a save, a registration) must move the
/// mark, or a clean session would keep reading an older version.
@Suite("Store: the visible mark a refresh reads without the lock")
struct VisibleMarkTests {
  /// Whether `store`'s mark describes the version it shows.
  func markMatches(_ store: Store) -> Bool {
    let version = store.version
    let mark = store.visibleMark
    return mark.number == version.number && mark.tableCount == version.tables.count
  }

  @Test("a save moves the mark, and a clean session refreshes to the saved version")
  func saveMovesTheMark() throws {
    let store = try Fixture.makeStore()
    let reader = Session(store: store)
    #expect(reader.table(Fixture.trip).liveCount == 0)
    #expect(markMatches(store))
    for round in 1...3 {
      let writer = Session(store: store)
      let key = writer.insert(entity: Fixture.trip, name: "Trip \(round)")
      try writer.save()
      #expect(markMatches(store))
      reader.refreshIfClean()
      #expect(reader.baseNumber == store.version.number, "round \(round)")
      #expect(reader.contains(key), "round \(round)")
      #expect(reader.table(Fixture.trip).liveCount == round)
    }
  }

  @Test("a registration moves the mark's table count, and a refresh takes the new table")
  func registrationMovesTheMark() throws {
    let store = try Fixture.makeStore()
    let reader = Session(store: store)
    _ = reader.table(Fixture.trip)
    let number = store.version.number
    try store.register([
      EntityDescription(
        name: "Receipt", attributes: [AttributeDescription(name: "total", valueType: .int)])
    ])
    #expect(store.version.number == number)
    #expect(markMatches(store))
    reader.refreshIfClean()
    #expect(reader.base.tables.count == store.version.tables.count)
    #expect(reader.base.catalog.entities.count == store.version.catalog.entities.count)
  }

  @Test("a session with unsaved changes stays on its base however the mark moves")
  func busySessionStays() throws {
    let store = try Fixture.makeStore()
    let busy = Session(store: store)
    _ = busy.insert(entity: Fixture.trip, name: "Mine")
    let base = busy.baseNumber
    let writer = Session(store: store)
    _ = writer.insert(entity: Fixture.trip, name: "Theirs")
    try writer.save()
    busy.refreshIfClean()
    #expect(busy.baseNumber == base)
    #expect(busy.table(Fixture.trip).liveCount == 1)
  }
}
