import Foundation
import ModelGraph

// Models declared as SwiftData code declares them (prefixed `SD` so the names stay unique in
// the test target): a user `id`, a to-many with an inverse, a subclass.

/// A recipe with its own `UUID` identity, as most SwiftData models have.
class SDRecipe: PersistentModel {
  @Attribute(.unique) var id: UUID
  @Attribute var title: String
  @Relationship(inverse: \SDTag.recipes) var tags: [SDTag]

  convenience init(title: String, id: UUID = UUID()) {
    self.init()
    self.id = id
    self.title = title
  }
}

/// A recipe of a kitchen; inherits the recipe's `id`.
class SDKitchenRecipe: SDRecipe {
  @Attribute var kitchen = ""
}

/// A tag; without an `id` of its own, identified by `ObjectIdentifier`.
class SDTag: PersistentModel {
  @Attribute var name: String
  @Relationship var recipes: [SDRecipe]

  convenience init(name: String) {
    self.init()
    self.name = name
  }
}
