import ModelGraph
import Testing

class KNTag: PersistentModel {
  @Attribute var label: String
  @Relationship var recipe: KNRecipe?
}

/// An inverse that names an attribute.
class KNRecipe: PersistentModel {
  @Attribute var name: String
  @Relationship(inverse: \KNTag.label) var tags: [KNTag]
}

/// An inverse that names a computed property.
class KNMenu: PersistentModel {
  @Relationship(inverse: \KNDish.menuName) var dishes: [KNDish]
}

class KNDish: PersistentModel {
  @Relationship var menu: KNMenu?
  var menuName: String { "menu" }
}

@Suite("Key paths in schema errors are printed by name")
struct KeyPathNameTests {
  @Test("an inverse naming an attribute is named, not printed as <computed 0x…>")
  func inverseAttribute() throws {
    let error = try #require(throws: SchemaError.self) {
      try makeInMemoryContainer(KNRecipe.self, KNTag.self)
    }
    #expect(error.message.contains("inverse: \\KNTag.label is not a relationship of KNTag"))
    #expect(!error.description.contains("<computed"))
  }

  @Test("an inverse naming a computed property names its class and type")
  func inverseComputed() throws {
    let error = try #require(throws: SchemaError.self) {
      try makeInMemoryContainer(KNMenu.self, KNDish.self)
    }
    #expect(
      error.message.contains(
        "inverse: \\KNDish.(a computed or @Transient String property) is not a relationship"))
    #expect(!error.description.contains("<computed"))
  }

  @Test("a unique constraint over a computed property names it")
  func uniqueComputed() throws {
    let error = try #require(throws: SchemaError.self) {
      try makeInMemoryContainer(CUBroken.self)
    }
    #expect(error.message.contains("\\CUBroken.(a computed or @Transient String property)"))
    #expect(!error.description.contains("<computed"))
  }
}
