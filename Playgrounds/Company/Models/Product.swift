import Foundation
import ModelGraph

/// A product's size in centimetres, stored as one Codable value.
struct Dimensions: CompositeValue, Equatable {
  var width: Double
  var height: Double
  var depth: Double
}

/// A product: a Codable struct attribute, a value that is not persisted, and an attribute
/// renamed from `title` in an earlier version of the schema.
class Product: PersistentModel {
  @Attribute(originalName: "title") var name: String
  @Attribute var price: Decimal
  @Attribute var dimensions: Dimensions
  @Transient var timesViewed = 0

  convenience init(name: String, price: Decimal, dimensions: Dimensions) {
    self.init()
    self.name = name
    self.price = price
    self.dimensions = dimensions
  }
}
