import ModelGraph
import ModelGraphCore
import Testing

class LRMember: PersistentModel {
  @Attribute var name: String

  convenience init(name: String) {
    self.init()
    self.name = name
  }
}

/// A subclass the container was not given, with a stored property that has no wrapper.
class LRUnmarkedMember: LRMember {
  @Attribute var level: Int
  var note = ""
}

/// A subclass the container was not given, valid: it registers itself when first used.
class LRGuestMember: LRMember {
  @Attribute var host: String
}

/// A root class the container was not given, with an unwrapped stored property.
class LRUnlistedRoot: PersistentModel {
  @Attribute var title: String
  let tag = 1
}

class LRClub: PersistentModel {
  @Attribute var name: String
  @Relationship var captain: LRMember?
  @Relationship var members: [LRMember]

  convenience init(name: String) {
    self.init()
    self.name = name
  }
}

func makeClubContext() throws -> ModelContext {
  ModelContext(try makeInMemoryContainer(LRMember.self, LRClub.self))
}

private func unmarkedMember() -> LRUnmarkedMember {
  let member = LRUnmarkedMember(name: "Ghost")
  member.level = 3
  return member
}

/// The schema error of a refused save: a ``ModelError`` of code `.schema` carrying the
/// ``SchemaError`` that registering the class threw.
private func refusal(_ body: () throws -> Void) throws -> ModelError {
  let error = try #require(throws: ModelError.self) { try body() }
  #expect(error.code == .schema)
  return error
}

@Suite("A class registered late that cannot be stored is an error, never a trap")
struct LateRegistrationTests {
  @Test("inserting an unlisted subclass with an unwrapped property throws from save")
  func unmarkedSubclassThrowsFromSave() throws {
    let context = try makeClubContext()
    context.insert(LRMember(name: "Saved"))
    try context.save()
    let saved = try #require(try context.fetch(FetchDescriptor<LRMember>()).first)
    saved.name = "Renamed"
    context.insert(unmarkedMember())
    #expect(context.hasChanges)
    let error = try refusal { try context.save() }
    let schema = try #require(error.schemaError)
    #expect(schema.code == .unmarkedStoredProperty)
    #expect(schema.entity == "LRUnmarkedMember")
    #expect(schema.property == "note")
    #expect(error.violations.map(\.entity) == ["LRUnmarkedMember"])
    #expect(error.violations.map(\.property) == ["note"])
    #expect(error.description.contains("LRUnmarkedMember.note"))
    // Nothing of the refused save reached the store.
    let fresh = ModelContext(context.container)
    #expect(try fresh.fetch(FetchDescriptor<LRMember>()).map(\.name) == ["Saved"])
    // The save keeps refusing until the object leaves the context.
    #expect(throws: ModelError.self) { try context.save() }
  }

  @Test("an unlisted root class with an unwrapped property throws from save")
  func unlistedRootThrowsFromSave() throws {
    let context = try makeClubContext()
    let root = LRUnlistedRoot()
    root.title = "Loose"
    context.insert(root)
    let error = try refusal { try context.save() }
    #expect(error.schemaError?.entity == "LRUnlistedRoot")
    #expect(error.schemaError?.property == "tag")
    #expect(root.modelContext == nil)
    #expect(root.title == "Loose")
  }

  @Test("rollback discards the refused insert, and the next save succeeds")
  func rollbackClearsRefusal() throws {
    let context = try makeClubContext()
    context.insert(unmarkedMember())
    context.rollback()
    #expect(!context.hasChanges)
    context.insert(LRMember(name: "After"))
    try context.save()
    #expect(try context.fetchCount(FetchDescriptor<LRMember>()) == 1)
  }

  @Test("deleting the refused object withdraws it, and the save goes through")
  func deleteWithdrawsRefusal() throws {
    let context = try makeClubContext()
    let ghost = unmarkedMember()
    context.insert(ghost)
    context.insert(LRMember(name: "Kept"))
    context.delete(ghost)
    try context.save()
    #expect(try context.fetch(FetchDescriptor<LRMember>()).map(\.name) == ["Kept"])
  }

  @Test("a fetch whose results would include the refused object throws the same error")
  func fetchCoveringRefusedObjectThrows() throws {
    let context = try makeClubContext()
    context.insert(unmarkedMember())
    let fetched = try refusal { _ = try context.fetch(FetchDescriptor<LRMember>()) }
    #expect(fetched.schemaError?.property == "note")
    _ = try refusal { _ = try context.fetchCount(FetchDescriptor<LRMember>()) }
    _ = try refusal { _ = try context.fetchIdentifiers(FetchDescriptor<LRMember>()) }
    // A fetch of another class is not affected; one without pending changes is not either.
    #expect(try context.fetch(FetchDescriptor<LRClub>()).isEmpty)
    var saved = FetchDescriptor<LRMember>()
    saved.includePendingChanges = false
    #expect(try context.fetch(saved).isEmpty)
  }

  @Test("a fetch of the unregistrable class itself throws the schema error")
  func fetchOfUnregistrableClassThrows() throws {
    let context = try makeClubContext()
    for error in [
      try #require(throws: SchemaError.self) {
        _ = try context.fetch(FetchDescriptor<LRUnmarkedMember>())
      },
      try #require(throws: SchemaError.self) {
        _ = try context.fetchCount(FetchDescriptor<LRUnmarkedMember>())
      },
      try #require(throws: SchemaError.self) {
        _ = try context.explain(FetchDescriptor<LRUnmarkedMember>())
      },
    ] {
      #expect(error.code == .unmarkedStoredProperty)
      #expect(error.entity == "LRUnmarkedMember")
      #expect(error.property == "note")
    }
    let root = try #require(throws: SchemaError.self) {
      _ = try context.fetch(FetchDescriptor<LRUnlistedRoot>())
    }
    #expect(root.property == "tag")
  }

  @Test("pointing a relationship at an unregistrable object throws from save")
  func relationshipToUnregistrableObject() throws {
    let context = try makeClubContext()
    let club = LRClub(name: "Chess")
    context.insert(club)
    try context.save()
    club.captain = unmarkedMember()
    club.members = [LRMember(name: "Ann"), unmarkedMember()]
    #expect(club.captain == nil)
    #expect(club.members.isEmpty)
    let error = try refusal { try context.save() }
    #expect(error.schemaError?.entity == "LRUnmarkedMember")
    #expect(error.violations.count == 1)
    context.rollback()
    #expect(try ModelContext(context.container).fetchCount(FetchDescriptor<LRMember>()) == 0)
  }

  @Test("a new object pointed at a managed one is inserted, or refused, by that assignment")
  func newUnregistrableObjectPointedAtManagedOne() throws {
    let context = try makeClubContext()
    let club = LRClub(name: "Go")
    context.insert(club)
    let ghost = LRUnlistedHolder()
    ghost.club = club
    #expect(ghost.modelContext == nil)
    let error = try refusal { try context.save() }
    #expect(error.schemaError?.entity == "LRUnlistedHolder")
  }

  @Test("a valid subclass the container was not given registers itself when inserted")
  func validLateSubclass() throws {
    let context = try makeClubContext()
    let guest = LRGuestMember(name: "Guest")
    guest.host = "Ann"
    context.insert(guest)
    try context.save()
    let fetched = try ModelContext(context.container).fetch(FetchDescriptor<LRMember>())
    #expect((fetched.first as? LRGuestMember)?.host == "Ann")
  }

  @Test("model(for:) of an identifier no class of this store has returns nil")
  func modelForUnknownIdentifier() throws {
    let context = try makeClubContext()
    let member = LRMember(name: "Ann")
    context.insert(member)
    try context.save()
    let other = try makeInMemoryContext(Trip.self)
    #expect(other.model(for: member.persistentModelID) == nil)
  }

  @Test("model(for:) of an object of a class no Swift type maps to returns nil")
  func modelForForeignEntity() throws {
    let container = try makeInMemoryContainer(Trip.self)
    let catalog = try container.store.register([
      EntityDescription(
        name: "RunnerNote",
        attributes: [AttributeDescription(name: "text", valueType: .string, isOptional: true)])
    ])
    let session = Session(store: container.store)
    let key = session.insert(entity: try #require(catalog.entity(named: "RunnerNote")).index)
    try session.save()
    let identifier = PersistentIdentifier(
      entityName: "RunnerNote", row: key.row, generation: key.generation)
    #expect(ModelContext(container).model(for: identifier) == nil)
  }
}

/// A root class the container was not given that points at a listed class.
class LRUnlistedHolder: PersistentModel {
  @Relationship var club: LRClub?
  var scratch = 0
}

/// A class the container was not given whose relationship points at a class that cannot be
/// stored.
class LRBadPointer: PersistentModel {
  @Attribute var name: String = ""
  @Relationship var target: LRUnlistedRoot?
}

@Suite("A late class whose relationship's destination cannot be stored")
struct LateRegistrationDestinationTests {
  @Test("every insert of it is refused, and saves and fetches of other classes go on")
  func destinationCannotBeStored() throws {
    let context = try makeClubContext()
    context.insert(LRBadPointer())
    #expect(throws: ModelError.self) { try context.save() }
    context.rollback()
    context.insert(LRBadPointer())
    let error = try #require(throws: ModelError.self) { try context.save() }
    #expect(error.schemaError?.entity == "LRUnlistedRoot")
    context.rollback()
    context.insert(LRMember(name: "Still fine"))
    try context.save()
    #expect(try context.fetch(FetchDescriptor<LRMember>()).map(\.name) == ["Still fine"])
  }
}
