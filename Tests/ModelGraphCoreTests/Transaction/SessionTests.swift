import Testing

@testable import ModelGraphCore

@Suite("Session: insert, update, delete, save and rollback")
struct SessionTests {
  @Test("inserts are visible in the session at once and in the store after save")
  func insertAndSave() throws {
    let store = try Fixture.makeStore()
    let session = Session(store: store)
    let trip = session.insert(entity: Fixture.trip, name: "Paris", days: 3)
    let business = session.insert(entity: Fixture.business, name: "Summit", days: 2)
    session.set("Acme", slot: Fixture.company, of: business)
    #expect(session.hasChanges)
    #expect(session.contains(trip))
    #expect(session.isInserted(entity: Fixture.trip, row: Int(trip.row)))
    #expect(!store.version.contains(trip))
    #expect(store.version.number == 0)

    try session.save()
    let version = store.version
    #expect(version.number == 1)
    #expect(!session.hasChanges)
    #expect(!session.isInserted(entity: Fixture.trip, row: Int(trip.row)))
    #expect(version.contains(trip))
    #expect(version.contains(business))
    #expect(version.get(String.self, slot: Fixture.name, of: trip) == "Paris")
    #expect(version.get(Int64.self, slot: Fixture.days, of: trip) == 3)
    #expect(version.get(String?.self, slot: Fixture.note, of: trip) == nil)
    #expect(version.get(String.self, slot: Fixture.company, of: business) == "Acme")
    #expect(version.count(of: Fixture.trip, deep: true) == 2)
    #expect(version.count(of: Fixture.trip, deep: false) == 1)
  }

  @Test("an update is private to the session until it saves")
  func update() throws {
    let store = try Fixture.makeStore()
    let writer = Session(store: store)
    let key = writer.insert(entity: Fixture.personal, name: "Beach", days: 7)
    try writer.save()

    let editor = Session(store: store)
    editor.set(Int64(9), slot: Fixture.days, of: key)
    editor.set("sunny" as String?, slot: Fixture.note, of: key)
    #expect(editor.hasChanges)
    #expect(editor.get(Int64.self, slot: Fixture.days, of: key) == 9)
    #expect(store.version.get(Int64.self, slot: Fixture.days, of: key) == 7)
    #expect(
      editor.committedTable(Fixture.personal).column(Fixture.days, as: Int64.self)[Int(key.row)]
        == 7)

    try editor.save()
    #expect(store.version.get(Int64.self, slot: Fixture.days, of: key) == 9)
    #expect(store.version.get(String?.self, slot: Fixture.note, of: key) == "sunny")
    #expect(store.version.get(String.self, slot: Fixture.name, of: key) == "Beach")
  }

  @Test("a delete hides the object at once and removes it from the store at save")
  func delete() throws {
    let store = try Fixture.makeStore()
    let writer = Session(store: store)
    let keep = writer.insert(entity: Fixture.trip, name: "Keep")
    let drop = writer.insert(entity: Fixture.trip, name: "Drop")
    try writer.save()

    let session = Session(store: store)
    session.delete(drop)
    #expect(!session.contains(drop))
    #expect(session.contains(keep))
    #expect(session.table(Fixture.trip).liveCount == 1)
    #expect(store.version.contains(drop))

    let deleted = try session.save()
    #expect(deleted == [drop])
    #expect(!store.version.contains(drop))
    #expect(store.version.names(of: Fixture.trip) == ["Keep"])
    #expect(store.version.tables[Fixture.trip].liveCount == 1)

    session.delete(drop)
    #expect(!session.hasChanges)
  }

  @Test("an object inserted and deleted before the save never reaches the store")
  func insertThenDelete() throws {
    let store = try Fixture.makeStore()
    let session = Session(store: store)
    let key = session.insert(entity: Fixture.trip, name: "Never")
    session.delete(key)
    #expect(!session.contains(key))
    #expect(try session.save().isEmpty)
    #expect(!store.version.contains(key))
    #expect(store.version.count(of: Fixture.trip, deep: true) == 0)
  }

  @Test("rollback discards inserts, restores updates and brings deleted objects back")
  func rollback() throws {
    let store = try Fixture.makeStore()
    let writer = Session(store: store)
    let changed = writer.insert(entity: Fixture.business, name: "Summit", days: 2)
    writer.set("Acme", slot: Fixture.company, of: changed)
    let deleted = writer.insert(entity: Fixture.trip, name: "Deleted")
    try writer.save()
    let versionBefore = store.version.number

    let session = Session(store: store)
    session.set("Globex", slot: Fixture.company, of: changed)
    session.delete(deleted)
    let inserted = session.insert(entity: Fixture.personal, name: "New")
    let discarded = session.rollback()

    #expect(discarded == [inserted])
    #expect(!session.hasChanges)
    #expect(!session.contains(inserted))
    #expect(session.contains(deleted))
    #expect(session.get(String.self, slot: Fixture.company, of: changed) == "Acme")
    #expect(session.table(Fixture.trip).liveCount == 1)
    #expect(session.table(Fixture.personal).liveCount == 0)
    #expect(store.version.number == versionBefore)
    try session.save()
    #expect(store.version.number == versionBefore)
  }

  @Test("a save without changes publishes nothing but moves the session to the newest version")
  func emptySaveRefreshes() throws {
    let store = try Fixture.makeStore()
    let reader = Session(store: store)
    #expect(reader.table(Fixture.trip).liveCount == 0)
    let writer = Session(store: store)
    let key = writer.insert(entity: Fixture.trip, name: "A")
    try writer.save()

    #expect(!reader.contains(key))
    let number = store.version.number
    #expect(try reader.save().isEmpty)
    #expect(store.version.number == number)
    #expect(reader.contains(key))
    #expect(reader.base.number == number)
  }

  @Test("refreshIfClean keeps a session with pending changes on its base version")
  func refreshOnlyWhenClean() throws {
    let store = try Fixture.makeStore()
    let busy = Session(store: store)
    let mine = busy.insert(entity: Fixture.trip, name: "Mine")
    let writer = Session(store: store)
    let theirs = writer.insert(entity: Fixture.trip, name: "Theirs")
    try writer.save()

    busy.refreshIfClean()
    #expect(!busy.contains(theirs))
    #expect(busy.contains(mine))
    try busy.save()
    #expect(busy.contains(theirs))
    #expect(store.version.names(of: Fixture.trip) == ["Mine", "Theirs"])
  }
}
