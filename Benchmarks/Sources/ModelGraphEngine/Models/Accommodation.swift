import ModelGraph

/// Where the traveller stays; deleted with its trip.
final class Accommodation: PersistentModel {
  @Attribute var name: String
  @Attribute var nightlyRate: Double
  @Relationship var trip: Trip?

  /// An accommodation not yet attached to a trip.
  convenience init(name: String, nightlyRate: Double) {
    self.init()
    self.name = name
    self.nightlyRate = nightlyRate
  }
}
