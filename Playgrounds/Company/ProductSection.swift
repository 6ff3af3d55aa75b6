import Foundation
import ModelGraph

/// A product with a Codable struct attribute, a transient value and a renamed attribute.
func runProductSection(_ container: ModelContainer) throws {
  print("\n== Products")
  let context = ModelContext(container)
  let lamp = Product(
    name: "Desk lamp", price: Decimal(string: "39.90")!,
    dimensions: Dimensions(width: 15, height: 45, depth: 15))
  context.insert(lamp)
  lamp.timesViewed = 3
  try context.save()

  let other = ModelContext(container)
  let fetched = try other.fetch(FetchDescriptor<Product>())[0]
  let size = fetched.dimensions
  let cm = "\(size.width) x \(size.height) x \(size.depth) cm"
  print("Another context reads \(fetched.name) at \(fetched.price): \(cm)")
  print(
    "timesViewed is transient: \(lamp.timesViewed) here, \(fetched.timesViewed) in another context")

  fetched.dimensions.height = 50
  try other.save()
  _ = try context.fetch(FetchDescriptor<Product>())
  let height = lamp.dimensions.height
  print("Another context saves a height of 50; after its next fetch this one reads \(height)")

  // The rename is part of the schema. A snapshot file written while the attribute was still
  // `title` opens through a SchemaMigrationPlan with a lightweight stage, which carries the
  // values over; without a plan it is refused with a MigrationError naming the rename.
  let entity = container.store.catalog.entity(named: "Product")!
  for attribute in entity.attributes where attribute.originalName != nil {
    print("Attribute \(attribute.name) was called \(attribute.originalName!) in an earlier schema")
  }
}
