import Foundation
import ModelGraph
import Testing

/// A keeper and its pets; the pets' subclass is declared apart (`SRKennel`), so a container
/// given only these two classes cannot find it by name when it opens a file holding hounds.
enum SRYard {
  class Keeper: PersistentModel {
    @Attribute var name: String
    @Relationship var pets: [Pet]

    convenience init(name: String) {
      self.init()
      self.name = name
    }
  }

  class Pet: PersistentModel {
    @Attribute var name: String
    @Relationship(inverse: \Keeper.pets) var keeper: Keeper?

    convenience init(name: String) {
      self.init()
      self.name = name
    }
  }
}

/// A subclass of `SRYard.Pet` in another enclosing type.
enum SRKennel {
  class Hound: SRYard.Pet {
    @Attribute var barks = 0
  }
}

/// Observation of a relationship of an object that has two handles in one context: a
/// base-class handle made before its subclass was known, and the subclass handle made after.
/// A tracking of either fires whichever handle (or inverse) writes.
@Suite("Observing a relationship through a superseded handle")
struct SupersededRelationshipObservationTests {
  /// A context on a file holding keepers Ann (with Rex the hound) and Bo, opened with the base
  /// classes only; Rex read as a pet, then as a hound (which supersedes the pet handle).
  private static func rexTwice(_ scratch: SnapshotScratch) throws -> (
    context: ModelContext, pet: SRYard.Pet, hound: SRKennel.Hound, bo: SRYard.Keeper
  ) {
    do {
      let writer = ModelContext(
        try ModelContainer(
          for: SRYard.Keeper.self, SRYard.Pet.self, SRKennel.Hound.self,
          configurations: ModelConfiguration(url: scratch.store)))
      let ann = SRYard.Keeper(name: "Ann")
      writer.insert(ann)
      writer.insert(SRYard.Keeper(name: "Bo"))
      let rex = SRKennel.Hound(name: "Rex")
      writer.insert(rex)
      rex.keeper = ann
      try writer.save()
    }
    let context = ModelContext(
      try ModelContainer(
        for: SRYard.Keeper.self, SRYard.Pet.self,
        configurations: ModelConfiguration(url: scratch.store)))
    let pet = try #require(try context.fetch(FetchDescriptor<SRYard.Pet>()).first)
    let hound = try #require(try context.fetch(FetchDescriptor<SRKennel.Hound>()).first)
    #expect(!(pet === hound))
    let bo = try #require(
      try context.fetch(FetchDescriptor<SRYard.Keeper>(predicate: #Predicate { $0.name == "Bo" }))
        .first)
    return (context, pet, hound, bo)
  }

  @Test("a write through the subclass handle fires a tracking of the base handle's relationship")
  func writeThroughNewHandle() throws {
    let scratch = try SnapshotScratch()
    let (_, pet, hound, bo) = try Self.rexTwice(scratch)
    let changes = track { _ = pet.keeper }
    hound.keeper = bo
    #expect(changes.value == 1)
    #expect(pet.keeper?.name == "Bo")
  }

  @Test("a write through the base handle fires a tracking of the subclass handle's relationship")
  func writeThroughSupersededHandle() throws {
    let scratch = try SnapshotScratch()
    let (_, pet, hound, bo) = try Self.rexTwice(scratch)
    let changes = track { _ = hound.keeper }
    pet.keeper = bo
    #expect(changes.value == 1)
    #expect(hound.keeper?.name == "Bo")
  }

  @Test("an inverse write fires a tracking of the base handle's relationship")
  func inverseWrite() throws {
    let scratch = try SnapshotScratch()
    let (_, pet, hound, bo) = try Self.rexTwice(scratch)
    let changes = track { _ = pet.keeper }
    bo.pets = [hound]
    #expect(changes.value == 1)
    #expect(pet.keeper?.name == "Bo")
  }
}
