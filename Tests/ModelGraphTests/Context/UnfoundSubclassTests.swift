import Foundation
import ModelGraph
import Testing

/// The base class, in one enclosing type.
enum USFarm {
  class Animal: PersistentModel {
    @Attribute var name: String

    convenience init(name: String) {
      self.init()
      self.name = name
    }
  }
}

/// Subclasses in another enclosing type: a container given only `USFarm.Animal` cannot find
/// them by name when it opens a file that holds their objects.
enum USKennel {
  class Dog: USFarm.Animal {
    @Attribute var barks: Int

    convenience init(name: String, barks: Int) {
      self.init(name: name)
      self.barks = barks
    }
  }

  class Puppy: Dog {
    @Attribute var weeks: Int

    convenience init(name: String, barks: Int, weeks: Int) {
      self.init(name: name, barks: barks)
      self.weeks = weeks
    }
  }
}

/// Writes a file holding a plain animal, a dog and a puppy, with every class registered.
private func writeFarm(_ scratch: SnapshotScratch) throws {
  let container = try ModelContainer(
    for: USFarm.Animal.self, USKennel.Dog.self, USKennel.Puppy.self,
    configurations: ModelConfiguration(url: scratch.store))
  let context = ModelContext(container)
  context.insert(USFarm.Animal(name: "Cat"))
  context.insert(USKennel.Dog(name: "Rex", barks: 3))
  context.insert(USKennel.Puppy(name: "Bit", barks: 1, weeks: 9))
  try context.save()
}

/// Writes the farm into `scratch` and opens it with only the base class given.
private func openWithBaseOnly(_ scratch: SnapshotScratch) throws -> ModelContext {
  try writeFarm(scratch)
  return ModelContext(
    try ModelContainer(
      for: USFarm.Animal.self, configurations: ModelConfiguration(url: scratch.store)))
}

/// Rex, fetched as an animal.
private func rexAsAnimal(_ context: ModelContext) throws -> USFarm.Animal {
  try #require(
    try context.fetch(FetchDescriptor<USFarm.Animal>(predicate: #Predicate { $0.name == "Rex" }))
      .first)
}

/// Rex (the dog that barks 3 times), fetched as a dog.
private func rexAsDog(_ context: ModelContext) throws -> USKennel.Dog {
  try #require(try context.fetch(FetchDescriptor<USKennel.Dog>()).first { $0.barks == 3 })
}

@Suite("Objects of a subclass the container cannot find by name")
struct UnfoundSubclassTests {
  @Test(
    "a deep fetch before the subclass is known gives base handles; a typed fetch after gives the subclass"
  )
  func typedFetchAfterDeepFetch() throws {
    let scratch = try SnapshotScratch()
    let context = try openWithBaseOnly(scratch)
    let sorted = FetchDescriptor<USFarm.Animal>(sortBy: [SortDescriptor(\.name)])
    // The dog and the puppy are read as animals while no class of theirs is known.
    let animals = try context.fetch(sorted)
    #expect(animals.map(\.name) == ["Bit", "Cat", "Rex"])
    #expect(animals.allSatisfy { type(of: $0) == USFarm.Animal.self })

    let byName = FetchDescriptor<USKennel.Dog>(sortBy: [SortDescriptor(\.name)])
    // The puppy's class is not known yet either: it is read as a dog.
    let dogs = try context.fetch(byName)
    #expect(dogs.allSatisfy { type(of: $0) == USKennel.Dog.self })
    #expect(dogs.map(\.name) == ["Bit", "Rex"])
    #expect(dogs.map(\.barks) == [1, 3])
    let puppies = try context.fetch(FetchDescriptor<USKennel.Puppy>())
    #expect(puppies.map(\.weeks) == [9])
    #expect(puppies.allSatisfy { type(of: $0) == USKennel.Puppy.self })
    // From then on the puppy's row has a puppy handle.
    let again = try context.fetch(byName)
    #expect(again.first === puppies.first)
    #expect(again.last === dogs.last)
    // The base handles taken before still read their rows, until their objects are deleted.
    #expect(animals.map(\.name) == ["Bit", "Cat", "Rex"])
    context.delete(try #require(again.last))
    try context.save()
    #expect(animals.map(\.isDeleted) == [false, false, true])
    #expect(try context.fetchCount(FetchDescriptor<USFarm.Animal>()) == 2)
  }

  @Test("a typed fetch after the base handles were released gives the subclass")
  func typedFetchAfterReleasedHandles() throws {
    let scratch = try SnapshotScratch()
    let context = try openWithBaseOnly(scratch)
    #expect(try context.fetch(FetchDescriptor<USFarm.Animal>()).count == 3)
    let dogs = try context.fetch(FetchDescriptor<USKennel.Dog>(sortBy: [SortDescriptor(\.name)]))
    #expect(dogs.map(\.barks) == [1, 3])
    // The puppy is read as a dog: its own class is not known.
    #expect(dogs.allSatisfy { type(of: $0) == USKennel.Dog.self })
  }

  @Test("a change made through a base handle is read through the subclass handle")
  func changeThroughBaseHandle() throws {
    let scratch = try SnapshotScratch()
    let context = try openWithBaseOnly(scratch)
    let rex = try rexAsAnimal(context)
    rex.name = "Rex II"
    let dog = try rexAsDog(context)
    #expect(dog.name == "Rex II")
    #expect(dog.persistentModelID == rex.persistentModelID)
    try context.save()
    let fresh = ModelContext(context.container)
    #expect(
      try fresh.fetch(FetchDescriptor<USKennel.Dog>()).map(\.name).sorted() == ["Bit", "Rex II"])
  }

  @Test("a class registered by another context reaches this context's identifier lookups")
  func registeredElsewhere() throws {
    let scratch = try SnapshotScratch()
    let context = try openWithBaseOnly(scratch)
    let animals = try context.fetch(
      FetchDescriptor<USFarm.Animal>(sortBy: [SortDescriptor(\.name)]))
    let rex = try #require(animals.last)
    #expect(type(of: rex) == USFarm.Animal.self)
    // Another context on the container registers the dog's class.
    let other = ModelContext(context.container)
    #expect(try other.fetch(FetchDescriptor<USKennel.Dog>()).count == 2)
    let dog = try #require(context.model(for: rex.persistentModelID) as? USKennel.Dog)
    #expect(dog.barks == 3)
    #expect(dog !== rex)
  }

  @Test("deleting through a handle that left the identity map deletes the object at once")
  func deleteThroughSupersededHandle() throws {
    let scratch = try SnapshotScratch()
    let context = try openWithBaseOnly(scratch)
    let rex = try rexAsAnimal(context)
    let dog = try rexAsDog(context)
    context.delete(rex)
    #expect(rex.isDeleted)
    #expect(dog.isDeleted)
    context.rollback()
    #expect(!rex.isDeleted)
    #expect(rex.name == "Rex")
    context.delete(rex)
    try context.save()
    #expect(rex.isDeleted)
    #expect(try context.fetchCount(FetchDescriptor<USFarm.Animal>()) == 2)
  }
}
