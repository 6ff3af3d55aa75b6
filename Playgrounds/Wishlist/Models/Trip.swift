import Foundation
import ModelGraph

/// A wishlist collection a trip belongs to.
enum TripCollection: String, Codable, Sendable, PersistentValue, CaseIterable {
  case cities
  case nature
  case culture
}

/// A trip on the wishlist: where, when, which collection, and what to do there.
///
/// In SwiftData this is `@Model final class Trip` with `#Index<Trip>([\.createdDate],
/// [\.collection])`; here the indexes are the `indexes` class property.
class Trip: PersistentModel, IndexedModel {
  @Attribute(.unique) var name: String
  @Attribute var destination: String
  @Attribute var collection: TripCollection
  @Attribute var startDate: Date
  @Attribute var endDate: Date
  @Attribute var createdDate: Date
  @Attribute var isComplete = false
  @Relationship(deleteRule: .cascade, inverse: \Activity.trip) var activities: [Activity]
  @Relationship(deleteRule: .cascade, inverse: \TripImage.trip) var images: [TripImage]

  class var indexes: [ModelIndex] { [.ordered(\Trip.createdDate), .hash(\Trip.collection)] }

  convenience init(
    name: String, destination: String, collection: TripCollection, startDate: Date,
    endDate: Date, createdDate: Date
  ) {
    self.init()
    self.name = name
    self.destination = destination
    self.collection = collection
    self.startDate = startDate
    self.endDate = endDate
    self.createdDate = createdDate
  }
}
