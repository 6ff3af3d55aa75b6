import Foundation
import ModelGraph

/// A shop's first schema: products on shelves, each with a stock-keeping code.
enum ShopV1: VersionedSchema {
  static var versionIdentifier: SchemaVersion { SchemaVersion(1, 0, 0) }
  static var models: [any PersistentModel.Type] { [Product.self, Shelf.self] }

  class Product: PersistentModel {
    @Attribute var name: String
    @Attribute var price: Int
    @Attribute var sku: String?
    @Relationship var shelf: Shelf?
    @Relationship var related: [Product]
  }

  class Shelf: PersistentModel {
    @Attribute var label: String
  }
}

/// `name` renamed `title`, `sku` removed, `stock` added with an initial value, `note` added
/// optional, `related` renamed `similar`; shelves list their products (derived from
/// `Product.shelf`) and a new class of suppliers.
enum ShopV2: VersionedSchema {
  static var versionIdentifier: SchemaVersion { SchemaVersion(2, 0, 0) }
  static var models: [any PersistentModel.Type] { [Product.self, Shelf.self, Supplier.self] }

  class Product: PersistentModel, IndexedModel {
    @Attribute(originalName: "name") var title: String
    @Attribute var price: Int
    @Attribute var stock = 5
    @Attribute var note: String?
    @Relationship var shelf: Shelf?
    @Relationship(originalName: "related") var similar: [Product]

    class var indexes: [ModelIndex] { [.ordered(\Product.price)] }
  }

  class Shelf: PersistentModel {
    @Attribute var label: String
    @Relationship(inverse: \Product.shelf) var products: [Product]
  }

  class Supplier: PersistentModel {
    @Attribute var company: String
  }
}

/// Titles become unique.
enum ShopV3: VersionedSchema {
  static var versionIdentifier: SchemaVersion { SchemaVersion(3, 0, 0) }
  static var models: [any PersistentModel.Type] { [Product.self, Shelf.self, Supplier.self] }

  class Product: PersistentModel {
    @Attribute(.unique) var title: String
    @Attribute var price: Int
    @Attribute var stock = 5
    @Attribute var note: String?
    @Relationship var shelf: Shelf?
    @Relationship var similar: [Product]
  }

  class Shelf: PersistentModel {
    @Attribute var label: String
    @Relationship(inverse: \Product.shelf) var products: [Product]
  }

  class Supplier: PersistentModel {
    @Attribute var company: String
  }
}

/// Version 1 to 2, lightweight.
enum ShopPlan: SchemaMigrationPlan {
  static var schemas: [any VersionedSchema.Type] { [ShopV1.self, ShopV2.self] }
  static var stages: [MigrationStage] {
    [.lightweight(fromVersion: ShopV1.self, toVersion: ShopV2.self)]
  }
}

/// Version 1 to 2 to 3, both lightweight: the second fails on duplicate titles.
enum ShopUniquePlan: SchemaMigrationPlan {
  static var schemas: [any VersionedSchema.Type] { [ShopV1.self, ShopV2.self, ShopV3.self] }
  static var stages: [MigrationStage] {
    [
      .lightweight(fromVersion: ShopV1.self, toVersion: ShopV2.self),
      .lightweight(fromVersion: ShopV2.self, toVersion: ShopV3.self),
    ]
  }
}

/// Version 1 to 2 with code.
enum ShopCustomPlan: SchemaMigrationPlan {
  static var schemas: [any VersionedSchema.Type] { [ShopV1.self, ShopV2.self] }
  static var stages: [MigrationStage] {
    [
      .custom(fromVersion: ShopV1.self, toVersion: ShopV2.self) { old, new in
        for product in try old.fetch(FetchDescriptor<ShopV1.Product>()) {
          new.model(for: product.persistentModelID).map { ($0 as? ShopV2.Product)?.stock = 1 }
        }
      }
    ]
  }
}

/// Boxes of items, some of them special.
enum CrateV1: VersionedSchema {
  static var versionIdentifier: SchemaVersion { SchemaVersion(1, 0, 0) }
  static var models: [any PersistentModel.Type] { [Box.self, Item.self, Special.self] }

  class Box: PersistentModel {
    @Attribute var label: String?
    @Relationship var items: [Item]
    @Relationship var first: Item?
  }

  class Item: PersistentModel {
    @Attribute var name: String
  }

  final class Special: Item {
    @Attribute var power: Int
  }
}

/// Special items are gone, a box's label is required, its first item became a list, and an
/// item knows its box (derived from the boxes' lists).
enum CrateV2: VersionedSchema {
  static var versionIdentifier: SchemaVersion { SchemaVersion(2, 0, 0) }
  static var models: [any PersistentModel.Type] { [Box.self, Item.self] }

  class Box: PersistentModel {
    @Attribute var label: String
    @Relationship var items: [Item]
    @Relationship var first: [Item]
  }

  class Item: PersistentModel {
    @Attribute var name: String
    @Relationship(inverse: \Box.items) var box: Box?
  }
}

/// Version 1 to 2, lightweight.
enum CratePlan: SchemaMigrationPlan {
  static var schemas: [any VersionedSchema.Type] { [CrateV1.self, CrateV2.self] }
  static var stages: [MigrationStage] {
    [.lightweight(fromVersion: CrateV1.self, toVersion: CrateV2.self)]
  }
}

/// Animals, some of them dogs (a subclass in its own table).
enum ZooV1: VersionedSchema {
  static var versionIdentifier: SchemaVersion { SchemaVersion(1, 0, 0) }
  static var models: [any PersistentModel.Type] { [Animal.self, Dog.self] }

  class Animal: PersistentModel {
    @Attribute var name: String
  }

  final class Dog: Animal {
    @Attribute var breed: String?
  }
}

/// The inherited `name` renamed `label` and unique among animals of every class.
enum ZooV2: VersionedSchema {
  static var versionIdentifier: SchemaVersion { SchemaVersion(2, 0, 0) }
  static var models: [any PersistentModel.Type] { [Animal.self, Dog.self] }

  class Animal: PersistentModel {
    @Attribute(.unique, originalName: "name") var label: String
  }

  final class Dog: Animal {
    @Attribute var breed: String?
  }
}

/// Version 1 to 2, lightweight.
enum ZooPlan: SchemaMigrationPlan {
  static var schemas: [any VersionedSchema.Type] { [ZooV1.self, ZooV2.self] }
  static var stages: [MigrationStage] {
    [.lightweight(fromVersion: ZooV1.self, toVersion: ZooV2.self)]
  }
}

/// Shelves gain an aisle; products and suppliers stay as in ``ShopV2``.
enum ShopV2Aisle: VersionedSchema {
  static var versionIdentifier: SchemaVersion { SchemaVersion(2, 1, 0) }
  static var models: [any PersistentModel.Type] { [Product.self, Shelf.self, Supplier.self] }

  class Product: PersistentModel, IndexedModel {
    @Attribute var title: String
    @Attribute var price: Int
    @Attribute var stock = 5
    @Attribute var note: String?
    @Relationship var shelf: Shelf?
    @Relationship var similar: [Product]

    class var indexes: [ModelIndex] { [.ordered(\Product.price)] }
  }

  class Shelf: PersistentModel {
    @Attribute var label: String
    @Attribute var aisle = 1
    @Relationship(inverse: \Product.shelf) var products: [Product]
  }

  class Supplier: PersistentModel {
    @Attribute var company: String
  }
}

/// Version 1 to 2 to 2.1, lightweight.
enum ShopAislePlan: SchemaMigrationPlan {
  static var schemas: [any VersionedSchema.Type] { [ShopV1.self, ShopV2.self, ShopV2Aisle.self] }
  static var stages: [MigrationStage] {
    [
      .lightweight(fromVersion: ShopV1.self, toVersion: ShopV2.self),
      .lightweight(fromVersion: ShopV2.self, toVersion: ShopV2Aisle.self),
    ]
  }
}
