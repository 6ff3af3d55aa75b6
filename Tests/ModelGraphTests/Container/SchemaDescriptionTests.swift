import ModelGraph
import Testing

enum SDSize: UInt8, Codable, Sendable, PersistentValue {
  case small = 1
  case large = 2
}

struct SDDimensions: CompositeValue {
  var width: Double
  var height: Double
}

class SDItem: PersistentModel {
  @Attribute(.unique) var code: String
  @Attribute(.preserveValueOnDeletion, originalName: "title") var label: String?
  @Attribute var ratio: Float
  @Attribute var small: Int8
  @Attribute var count: UInt16
  @Attribute var size: SDSize
  @Attribute var sizes: [SDSize]
  @Attribute var dimensions: SDDimensions?
  @Attribute var tags: [String]
  @Transient var cache = 0
}

class SDSpecialItem: SDItem {
  @Attribute var extra: Decimal
}

class SDOwner: PersistentModel {
  @Attribute var name: String
  @Relationship(deleteRule: .cascade, inverse: \SDPet.owner) var pets: [SDPet]
}

class SDPet: PersistentModel {
  @Attribute var name: String
  @Relationship var owner: SDOwner?
}

@Suite("The schema a container derives from model classes")
struct SchemaDescriptionTests {
  @Test("attributes are found in declaration order with their storage types and options")
  func attributes() throws {
    let container = try makeInMemoryContainer(SDItem.self)
    let entity = try #require(container.store.catalog.entity(named: "SDItem"))
    #expect(
      entity.attributes.map(\.name) == [
        "code", "label", "ratio", "small", "count", "size", "sizes", "dimensions", "tags",
      ])
    #expect(
      entity.attributes.map(\.valueType) == [
        .string, .string, .double, .int, .uint, .uint, .array(.uint), .composite("SDDimensions"),
        .array(.string),
      ])
    #expect(
      entity.attributes.map(\.isOptional) == [false, true] + Array(repeating: false, count: 5) + [
        true, false,
      ])
    #expect(entity.attributes.map(\.isUnique) == [true] + Array(repeating: false, count: 8))
    let label = entity.attributes[1]
    #expect(label.preservesValueOnDeletion)
    #expect(label.originalName == "title")
    #expect(!entity.attributes[0].preservesValueOnDeletion)
    #expect(entity.attributes[0].originalName == nil)
  }

  @Test("a subclass is registered on first use with its parent and inherited attributes")
  func subclassOnFirstUse() throws {
    let container = try makeInMemoryContainer(SDItem.self)
    #expect(container.store.catalog.entity(named: "SDSpecialItem") == nil)
    let context = ModelContext(container)
    context.insert(SDSpecialItem())
    let entity = try #require(container.store.catalog.entity(named: "SDSpecialItem"))
    #expect(entity.description.parent == "SDItem")
    #expect(entity.description.attributes.map(\.name) == ["extra"])
    #expect(entity.attributes.count == 10)
    #expect(entity.attributes.last?.valueType == .decimal)
  }

  @Test("relationships are recorded with destination, cardinality, delete rule and inverse")
  func relationships() throws {
    let container = try makeInMemoryContainer(SDOwner.self)
    let catalog = container.store.catalog
    let owner = try #require(catalog.entity(named: "SDOwner"))
    let pet = try #require(catalog.entity(named: "SDPet"))
    let pets = try #require(owner.relationships.first)
    #expect(owner.relationships.count == 1)
    #expect(pets.name == "pets")
    #expect(pets.destination == "SDPet")
    #expect(pets.isToMany)
    #expect(pets.deleteRule == .cascade)
    #expect(pets.inverse == "owner")
    let back = try #require(pet.relationships.first)
    #expect(back.name == "owner")
    #expect(back.destination == "SDOwner")
    #expect(!back.isToMany)
    #expect(back.deleteRule == .nullify)
    #expect(owner.attributes.map(\.name) == ["name"])
  }
}
