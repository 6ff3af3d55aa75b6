import ModelGraph
import Testing

/// A team with the named players.
func makeTeam(_ name: String, players: Int) -> RLTeam {
  let team = RLTeam(name: name)
  team.players = (0..<players).map { RLPlayer(name: "\(name)\($0)") }
  return team
}

@Suite("Relationships: to-many count limits")
struct RelationshipCountTests {
  @Test("a team within its limits saves")
  func withinLimits() throws {
    let context = try makeInMemoryContext(RLTeam.self)
    context.insert(makeTeam("A", players: 1))
    context.insert(makeTeam("B", players: 3))
    try context.save()
    #expect(try context.fetchCount(FetchDescriptor<RLPlayer>()) == 4)
  }

  @Test("a new team with too few or too many players fails the save, naming each")
  func newTeamOutsideLimits() throws {
    let container = try makeInMemoryContainer(RLTeam.self)
    let context = ModelContext(container)
    let empty = makeTeam("Empty", players: 0)
    let crowded = makeTeam("Crowded", players: 4)
    context.insert(empty)
    context.insert(crowded)
    let error = try #require(throws: ModelError.self) { try context.save() }
    #expect(error.violations.count == 2)
    #expect(error.violations.allSatisfy { $0.entity == "RLTeam" && $0.property == "players" })
    #expect(
      Set(error.violations.compactMap(\.identifier)) == [
        empty.persistentModelID, crowded.persistentModelID,
      ])
    #expect(try ModelContext(container).fetchCount(FetchDescriptor<RLTeam>()) == 0)
  }

  @Test("changing a saved team's players is checked on save, from either side")
  func changedTeamOutsideLimits() throws {
    let context = try makeInMemoryContext(RLTeam.self)
    let small = makeTeam("Small", players: 1)
    let full = makeTeam("Full", players: 3)
    context.insert(small)
    context.insert(full)
    try context.save()

    // Moving the only player leaves `small` empty and `full` over its maximum.
    small.players.first?.team = full
    let error = try #require(throws: ModelError.self) { try context.save() }
    #expect(
      Set(error.violations.compactMap(\.identifier)) == [
        small.persistentModelID, full.persistentModelID,
      ])
    context.rollback()

    // Deleting the only player of a saved team (nullify) leaves it below its minimum.
    let only = try #require(small.players.first)
    context.delete(only)
    let below = try #require(throws: ModelError.self) { try context.save() }
    #expect(below.violations.map(\.identifier) == [small.persistentModelID])
    small.players = [RLPlayer(name: "Replacement")]
    try context.save()
    #expect(small.players.map(\.name) == ["Replacement"])
  }
}

@Suite("Relationships: one failed save lists every violation")
struct RelationshipAtomicSaveTests {
  @Test("several kinds of violation are reported together and nothing is applied")
  func everyViolationAtOnce() throws {
    let container = try makeInMemoryContainer(RLLibrary.self, RLAccount.self, RLTeam.self)
    let context = ModelContext(container)
    let library = RLLibrary(name: "Central")
    context.insert(library)
    let event = RLEvent(title: "Reading")
    library.events = [event]
    library.books = [RLBook(title: "Dune", isbn: "1")]
    context.insert(RLAccount(email: "a@x.org", name: "Ann"))
    try context.save()
    let version = container.store.version.number

    context.delete(library)
    let duplicate = RLAccount(email: "a@x.org", name: "Dup")
    context.insert(duplicate)
    let nameless = RLAccount()
    nameless.email = "n@x.org"
    context.insert(nameless)
    let empty = makeTeam("Empty", players: 0)
    context.insert(empty)
    let crowded = makeTeam("Crowded", players: 5)
    context.insert(crowded)

    let error = try #require(throws: ModelError.self) { try context.save() }
    #expect(error.code == .validationFailed)
    let listed = error.violations.map { "\($0.entity).\($0.property)" }
    #expect(
      listed.sorted() == [
        "RLAccount.email", "RLAccount.name", "RLLibrary.events", "RLTeam.players",
        "RLTeam.players",
      ])
    let ids = Set(error.violations.compactMap(\.identifier))
    #expect(
      ids == [
        library.persistentModelID, duplicate.persistentModelID, nameless.persistentModelID,
        empty.persistentModelID, crowded.persistentModelID,
      ])
    #expect(error.violations.allSatisfy { !$0.rule.isEmpty })
    #expect(error.description.split(separator: "\n").count == 6)

    // The store and other readers are untouched; this context keeps its pending changes.
    #expect(container.store.version.number == version)
    let other = ModelContext(container)
    #expect(try other.fetchCount(FetchDescriptor<RLLibrary>()) == 1)
    #expect(try other.fetchCount(FetchDescriptor<RLBook>()) == 1)
    #expect(try other.fetchCount(FetchDescriptor<RLAccount>()) == 1)
    #expect(try other.fetchCount(FetchDescriptor<RLTeam>()) == 0)
    #expect(context.insertedModelsArray.count == 2 + 2 + 5)
    #expect(library.isDeleted)

    // Fixing every violation lets the same pending changes save.
    context.delete(event)
    duplicate.email = "dup@x.org"
    nameless.name = "Named"
    empty.players = [RLPlayer(name: "Solo")]
    crowded.players = Array(crowded.players.prefix(3))
    try context.save()
    let after = ModelContext(container)
    #expect(try after.fetchCount(FetchDescriptor<RLLibrary>()) == 0)
    #expect(try after.fetchCount(FetchDescriptor<RLAccount>()) == 3)
    #expect(try after.fetchCount(FetchDescriptor<RLTeam>()) == 2)
    #expect(try after.fetchCount(FetchDescriptor<RLPlayer>()) == 6)
  }
}
