import Testing

@testable import ModelGraphCore

private func attribute(_ name: String, _ type: ValueType = .int) -> AttributeDescription {
  AttributeDescription(name: name, valueType: type)
}

/// Vehicle → Car → SportsCar, and Vehicle → Truck, given children first.
private let vehicles = [
  EntityDescription(name: "SportsCar", parent: "Car", attributes: [attribute("topSpeed", .double)]),
  EntityDescription(name: "Truck", parent: "Vehicle", attributes: [attribute("payload")]),
  EntityDescription(name: "Car", parent: "Vehicle", attributes: [attribute("seats")]),
  EntityDescription(
    name: "Vehicle", attributes: [attribute("name", .string), attribute("wheels")],
    relationships: [RelationshipDescription(name: "owner", destination: "Vehicle", isToMany: false)]
  ),
]

@Suite("SchemaCatalog: inheritance, slots, subtrees and errors")
struct SchemaCatalogTests {
  @Test("parents resolve before children whatever the order given")
  func resolvesInheritance() throws {
    let catalog = try SchemaCatalog().adding(vehicles)
    let vehicle = try #require(catalog.entity(named: "Vehicle"))
    let car = try #require(catalog.entity(named: "Car"))
    let sports = try #require(catalog.entity(named: "SportsCar"))
    let truck = try #require(catalog.entity(named: "Truck"))
    #expect(catalog.entities.count == 4)
    #expect(vehicle.parentIndex == nil)
    #expect(car.parentIndex == vehicle.index)
    #expect(sports.parentIndex == car.index)
    #expect(sports.lineage == [vehicle.index, car.index, sports.index])
    #expect(truck.lineage == [vehicle.index, truck.index])
    #expect(catalog.entity(named: "Bike") == nil)
  }

  @Test("inherited attributes come first and keep their slot in every descendant")
  func slots() throws {
    let catalog = try SchemaCatalog().adding(vehicles)
    let sports = try #require(catalog.entity(named: "SportsCar"))
    let truck = try #require(catalog.entity(named: "Truck"))
    #expect(sports.attributes.map(\.name) == ["name", "wheels", "seats", "topSpeed"])
    #expect(truck.attributes.map(\.name) == ["name", "wheels", "payload"])
    for entity in catalog.entities {
      #expect(entity.attributeSlot(named: "name") == 0)
      #expect(entity.attributeSlot(named: "wheels") == 1)
      #expect(entity.relationshipSlot(named: "owner") == 0)
    }
    #expect(sports.attributeSlot(named: "topSpeed") == 3)
    #expect(truck.attributeSlot(named: "seats") == nil)
    #expect(sports.relationships.map(\.name) == ["owner"])
  }

  @Test("a subtree lists the entity first and then every descendant, and only those")
  func subtrees() throws {
    let catalog = try SchemaCatalog().adding(vehicles)
    let index = { (name: String) in catalog.entity(named: name)!.index }
    let vehicleTree = catalog.subtree(of: index("Vehicle"))
    #expect(vehicleTree.first == index("Vehicle"))
    #expect(Set(vehicleTree) == Set(["Vehicle", "Car", "SportsCar", "Truck"].map(index)))
    #expect(vehicleTree.count == 4)
    let carTree = catalog.subtree(of: index("Car"))
    #expect(carTree.first == index("Car"))
    #expect(Set(carTree) == [index("Car"), index("SportsCar")])
    #expect(catalog.subtree(of: index("SportsCar")) == [index("SportsCar")])
    #expect(catalog.subtree(of: index("Truck")) == [index("Truck")])
  }

  @Test("isKind(of:) follows the lineage")
  func isKind() throws {
    let catalog = try SchemaCatalog().adding(vehicles)
    let vehicle = try #require(catalog.entity(named: "Vehicle"))
    let car = try #require(catalog.entity(named: "Car"))
    let sports = try #require(catalog.entity(named: "SportsCar"))
    let truck = try #require(catalog.entity(named: "Truck"))
    #expect(sports.isKind(of: vehicle))
    #expect(sports.isKind(of: car))
    #expect(sports.isKind(of: sports))
    #expect(!car.isKind(of: sports))
    #expect(!truck.isKind(of: car))
  }

  @Test("a catalog only grows: later additions keep earlier indices, repeats change nothing")
  func growsStably() throws {
    let first = try SchemaCatalog().adding([vehicles[3], vehicles[2]])
    let grown = try first.adding(vehicles)
    #expect(first.entities.count == 2)
    #expect(grown.entities.count == 4)
    for entity in first.entities {
      #expect(grown.entity(named: entity.name)?.index == entity.index)
    }
    let again = try grown.adding(vehicles)
    #expect(again.entities.map(\.name) == grown.entities.map(\.name))
    #expect(Set(again.subtree(of: 0)) == Set(grown.subtree(of: 0)))
  }

  @Test("an unknown parent is an error naming the entity")
  func unknownParent() throws {
    let error = try #require(throws: SchemaError.self) {
      try SchemaCatalog().adding([EntityDescription(name: "Orphan", parent: "Missing")])
    }
    #expect(error.code == .unknownParent)
    #expect(error.entity == "Orphan")
    #expect(error.message.contains("Missing"))
  }

  @Test("a property declared again in a descendant names the entity and property")
  func duplicateInDescendant() throws {
    let error = try #require(throws: SchemaError.self) {
      try SchemaCatalog().adding(
        vehicles + [
          EntityDescription(name: "Racer", parent: "SportsCar", attributes: [attribute("wheels")])
        ])
    }
    #expect(error.code == .duplicateProperty)
    #expect(error.entity == "Racer")
    #expect(error.property == "wheels")
    #expect(error.description.hasPrefix("Racer.wheels"))
  }

  @Test("an attribute and a relationship of one name in one entity are a duplicate")
  func duplicateWithinEntity() throws {
    let error = try #require(throws: SchemaError.self) {
      try SchemaCatalog().adding([
        EntityDescription(
          name: "Boat", attributes: [attribute("hull")],
          relationships: [
            RelationshipDescription(name: "hull", destination: "Boat", isToMany: true)
          ])
      ])
    }
    #expect(error.code == .duplicateProperty)
    #expect(error.entity == "Boat")
    #expect(error.property == "hull")
  }

  @Test("a descendant's attribute named like an inherited relationship is a duplicate")
  func duplicateOfInheritedRelationship() throws {
    let error = try #require(throws: SchemaError.self) {
      try SchemaCatalog().adding(
        vehicles + [
          EntityDescription(name: "Van", parent: "Vehicle", attributes: [attribute("owner")])
        ])
    }
    #expect(error.code == .duplicateProperty)
    #expect(error.property == "owner")
  }

  @Test("a name reused with another definition conflicts; the old catalog is untouched")
  func conflictingEntity() throws {
    let catalog = try SchemaCatalog().adding(vehicles)
    let error = try #require(throws: SchemaError.self) {
      try catalog.adding([
        EntityDescription(name: "Car", parent: "Vehicle", attributes: [attribute("doors")])
      ])
    }
    #expect(error.code == .conflictingEntity)
    #expect(error.entity == "Car")
    #expect(catalog.entity(named: "Car")?.attributes.map(\.name) == ["name", "wheels", "seats"])
  }

  @Test("a store's failed registration adds nothing, not even the valid entities")
  func failedRegistrationAddsNothing() throws {
    let store = Store()
    try store.register([vehicles[3]])
    #expect(throws: SchemaError.self) {
      try store.register([
        EntityDescription(name: "Bike", parent: "Vehicle"),
        EntityDescription(name: "Orphan", parent: "Missing"),
      ])
    }
    #expect(store.catalog.entities.count == 1)
    #expect(store.catalog.entity(named: "Bike") == nil)
    #expect(store.version.tables.count == 1)
  }

  @Test("unique rules: one per unique attribute, declared where the attribute is, then constraints")
  func uniqueRules() throws {
    let catalog = try SchemaCatalog().adding([
      EntityDescription(
        name: "Account",
        attributes: [
          AttributeDescription(name: "code", valueType: .string, isUnique: true),
          AttributeDescription(name: "owner", valueType: .string),
        ]),
      EntityDescription(
        name: "Savings", parent: "Account",
        attributes: [
          AttributeDescription(name: "iban", valueType: .string, isUnique: true),
          AttributeDescription(name: "branch", valueType: .string),
        ],
        uniqueConstraints: [["owner", "branch"], ["iban"]]),
      EntityDescription(name: "Youth", parent: "Savings"),
    ])
    let (account, savings, youth) = (0, 1, 2)
    #expect(
      catalog.entities[account].uniqueRules == [
        UniqueConstraint(declaringEntity: account, slots: [0])
      ])
    let inherited = [
      UniqueConstraint(declaringEntity: account, slots: [0]),
      UniqueConstraint(declaringEntity: savings, slots: [2]),
      UniqueConstraint(declaringEntity: savings, slots: [1, 3]),
    ]
    // `["iban"]` repeats the attribute's own rule, so it counts once.
    #expect(catalog.entities[savings].uniqueRules == inherited)
    #expect(catalog.entities[youth].uniqueRules == inherited)
    for entity in catalog.entities {
      for rule in entity.uniqueRules where rule.slots.count == 1 {
        #expect(
          rule.declaringEntity
            == catalog.declaringEntity(ofAttribute: rule.slots[0], in: entity))
      }
    }
  }
}
