import ModelGraph

/// Something to do, on a trip or (as an idea) on none yet.
class Activity: PersistentModel {
  @Attribute var name: String
  @Attribute var isComplete = false
  @Relationship var trip: Trip?

  convenience init(name: String) {
    self.init()
    self.name = name
  }

  /// Marks the activity done; when it was the trip's last open one, the trip is complete too.
  func complete() {
    isComplete = true
    if let trip, trip.activities.allSatisfy(\.isComplete) {
      trip.isComplete = true
    }
  }
}
