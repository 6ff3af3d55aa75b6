import Foundation
import ModelGraph
import Testing

/// The names of `models`, through the `[any PersistentModel.Type]` spelling.
private func names(_ models: [any PersistentModel.Type]) -> [String] {
  models.map { "\($0)" }
}

/// Fetches every object of `T`, through the `T: PersistentModel` spelling.
private func fetchAll<T: PersistentModel>(_: T.Type, in context: ModelContext) throws -> [T] {
  try context.fetch(FetchDescriptor<T>())
}

/// The `id`s of `models`, through `any PersistentModel` opened as an `Identifiable`.
///
/// (`AnyHashable($0.id)` on the existential would pick the standard library's
/// `ObjectIdentifier` `id` of every class, as it would with SwiftData's protocol.)
private func identities(_ models: [any PersistentModel]) -> [AnyHashable] {
  models.map { identity(of: $0) }
}

/// The `Identifiable` `id` of `model`.
private func identity<T: Identifiable>(of model: T) -> AnyHashable { AnyHashable(model.id) }

/// SwiftData code as it is written compiles here: these tests are the compile test (a
/// spelling that stops compiling fails the build) and check that each spelling does what
/// SwiftData's does.
@Suite("SwiftData spellings")
struct SwiftDataSpellingTests {
  func seeded() throws -> (ModelContext, SDRecipe) {
    let schema = Schema([SDRecipe.self, SDTag.self])
    let container = try ModelContainer(
      for: schema, configurations: [ModelConfiguration(isStoredInMemoryOnly: true)])
    let context = ModelContext(container)
    let soup = SDRecipe(title: "Soup")
    let cake = SDKitchenRecipe(title: "Cake")
    cake.kitchen = "pastry"
    let vegan = SDTag(name: "vegan")
    let sweet = SDTag(name: "sweet")
    context.insert(soup)
    context.insert(cake)
    soup.tags = [vegan]
    cake.tags = [vegan, sweet]
    try context.save()
    return (context, soup)
  }

  @Test("FetchDescriptor(predicate: #Predicate<Model> { … }) infers the model class")
  func inferredDescriptor() throws {
    let (context, _) = try seeded()
    let title = "Soup"
    let found = try context.fetch(
      FetchDescriptor(predicate: #Predicate<SDRecipe> { $0.title == title }))
    #expect(found.map(\.title) == ["Soup"])
    let sorted = try context.fetch(
      FetchDescriptor(
        predicate: #Predicate<SDRecipe> { $0.title != "" },
        sortBy: [SortDescriptor(\.title)]))
    #expect(sorted.map(\.title) == ["Cake", "Soup"])
  }

  @Test("a nested-closure predicate compiles and runs")
  func nestedClosure() throws {
    let (context, _) = try seeded()
    let name = "sweet"
    let found = try context.fetch(
      FetchDescriptor(predicate: #Predicate<SDRecipe> { $0.tags.contains { $0.name == name } }))
    #expect(found.map(\.title) == ["Cake"])
    #expect(found.first is SDKitchenRecipe)
    let count = try context.fetchCount(
      FetchDescriptor(
        predicate: #Predicate<SDRecipe> { recipe in
          recipe.tags.contains { tag in tag.name == "vegan" }
        }))
    #expect(count == 2)
  }

  @Test("@Attribute(.unique) var id: UUID is the model's Identifiable id, queryable and unique")
  func userIdentifier() throws {
    let (context, soup) = try seeded()
    let wanted = soup.id
    let identifier: UUID = soup.id
    #expect(identifier == wanted)
    let found = try context.fetch(
      FetchDescriptor(predicate: #Predicate<SDRecipe> { $0.id == wanted }))
    #expect(found.map(\.title) == ["Soup"])
    context.insert(SDRecipe(title: "Copy", id: wanted))
    #expect(throws: (any Error).self) { try context.save() }
  }

  @Test("a model without an id of its own is identified by ObjectIdentifier")
  func defaultIdentifier() throws {
    let tag = SDTag(name: "t")
    let identifier: ObjectIdentifier = tag.id
    #expect(identifier == ObjectIdentifier(tag))
  }

  @Test("T: PersistentModel, any PersistentModel and [any PersistentModel.Type]")
  func existentialsAndGenerics() throws {
    let (context, soup) = try seeded()
    #expect(try fetchAll(SDTag.self, in: context).count == 2)
    #expect(try fetchAll(SDRecipe.self, in: context).count == 2)
    #expect(
      names([SDRecipe.self, SDKitchenRecipe.self, SDTag.self]) == [
        "SDRecipe", "SDKitchenRecipe", "SDTag",
      ])
    let objects: [any PersistentModel] = [soup, SDTag(name: "new")]
    #expect(identities(objects).first == AnyHashable(soup.id))
    let anyModel: any PersistentModel = soup
    context.insert(objects[1])
    #expect(context.insertedModelsArray.count == 1)
    #expect(context.model(for: anyModel.persistentModelID) === soup)
    #expect(!(ModelObject.self is any PersistentModel.Type))
  }

  @Test("Schema([...]) and ModelContainer(for: Schema, configurations: [...])")
  func schema() throws {
    let schema = Schema([SDRecipe.self, SDTag.self])
    #expect(names(schema.models) == ["SDRecipe", "SDTag"])
    let container = try ModelContainer(
      for: schema, configurations: ModelConfiguration(isStoredInMemoryOnly: true))
    let context = ModelContext(container)
    context.insert(SDTag(name: "x"))
    try context.save()
    #expect(try context.fetchCount(FetchDescriptor<SDTag>()) == 1)
  }
}
