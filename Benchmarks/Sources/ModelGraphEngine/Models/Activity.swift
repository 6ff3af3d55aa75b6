import ModelGraph

/// Something the traveller plans to do; deleted with its trip.
final class Activity: PersistentModel {
  @Attribute var name: String
  @Attribute var isComplete: Bool
  @Attribute var dateCreated: Date
  @Relationship var trip: Trip?

  /// An activity not yet attached to a trip.
  convenience init(name: String, isComplete: Bool, dateCreated: Date) {
    self.init()
    self.name = name
    self.isComplete = isComplete
    self.dateCreated = dateCreated
  }
}
