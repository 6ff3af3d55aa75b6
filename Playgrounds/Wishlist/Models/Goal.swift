import Foundation
import ModelGraph

/// A traveller's goal, shown in `sortOrder` until it is achieved.
class Goal: PersistentModel {
  @Attribute var title: String
  @Attribute var sortOrder: Int
  @Attribute var dateAchieved: Date?

  convenience init(title: String, sortOrder: Int) {
    self.init()
    self.title = title
    self.sortOrder = sortOrder
  }
}

/// A goal reached by completing a number of trips.
class TripGoal: Goal {
  @Attribute var tripsNeeded: Int
}

/// A goal reached by completing a number of activities.
class ActivityGoal: Goal {
  @Attribute var activitiesNeeded: Int
}
