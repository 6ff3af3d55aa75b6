import Foundation
import ModelGraph
import Testing

/// Observation of an object that has two handles in one context: a base-class handle made
/// before its subclass was known, and the subclass handle made after (see
/// `UnfoundSubclassTests`). A tracking fires whichever handle writes.
@Suite("Observing an object through a superseded handle")
struct SupersededHandleObservationTests {
  /// A context on a file holding Rex the dog, opened with only the base class, Rex read as an
  /// animal, and then as a dog (which supersedes the animal handle).
  /// `beforeDog` runs between the two reads, with the animal handle.
  private static func rexTwice(
    _ scratch: SnapshotScratch, beforeDog: (USFarm.Animal) -> Void = { _ in }
  ) throws -> (context: ModelContext, animal: USFarm.Animal, dog: USKennel.Dog) {
    do {
      // The writer's container lets the file go at the end of this scope.
      let writer = ModelContext(
        try ModelContainer(
          for: USFarm.Animal.self, USKennel.Dog.self, USKennel.Puppy.self,
          configurations: ModelConfiguration(url: scratch.store)))
      writer.insert(USKennel.Dog(name: "Rex", barks: 3))
      try writer.save()
    }
    let context = ModelContext(
      try ModelContainer(
        for: USFarm.Animal.self, configurations: ModelConfiguration(url: scratch.store)))
    let animal = try #require(
      try context.fetch(FetchDescriptor<USFarm.Animal>(predicate: #Predicate { $0.name == "Rex" }))
        .first)
    beforeDog(animal)
    let dog = try #require(try context.fetch(FetchDescriptor<USKennel.Dog>()).first)
    #expect(!(animal === dog))
    return (context, animal, dog)
  }

  @Test("a write through the subclass handle fires a tracking of the base handle")
  func writeThroughNewHandle() throws {
    let scratch = try SnapshotScratch()
    let (_, animal, dog) = try Self.rexTwice(scratch)
    let changes = track { _ = animal.name }
    dog.name = "Max"
    #expect(changes.value == 1)
    #expect(animal.name == "Max")
  }

  @Test("a write through the base handle fires a tracking of the subclass handle")
  func writeThroughSupersededHandle() throws {
    let scratch = try SnapshotScratch()
    let (_, animal, dog) = try Self.rexTwice(scratch)
    let changes = track { _ = dog.name }
    animal.name = "Max"
    #expect(changes.value == 1)
    #expect(dog.name == "Max")
  }

  @Test("a rollback fires trackings of both handles")
  func rollbackFiresBoth() throws {
    let scratch = try SnapshotScratch()
    let (context, animal, dog) = try Self.rexTwice(scratch)
    dog.name = "Max"
    let throughAnimal = track { _ = animal.name }
    let throughDog = track { _ = dog.name }
    context.rollback()
    #expect(throughAnimal.value == 1)
    #expect(throughDog.value == 1)
    #expect(animal.name == "Rex")
  }

  @Test("a tracking of the base handle made before the subclass was known fires")
  func trackingFromBeforeTheSubclass() throws {
    let scratch = try SnapshotScratch()
    var changes: ChangeCount?
    let (_, _, dog) = try Self.rexTwice(scratch) { animal in
      changes = track { _ = animal.name }
    }
    // Superseding the handle tells the tracking (its key paths are the animal class's), or at
    // the latest the write through the dog does.
    dog.name = "Max"
    #expect(try #require(changes).value == 1)
  }
}
