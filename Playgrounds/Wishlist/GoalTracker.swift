import Foundation
import ModelGraph

/// Marks goals achieved once enough trips or activities are complete.
enum GoalTracker {
  /// Sets `dateAchieved` to `day` on every goal that is now reached and was not before.
  ///
  /// - Returns: The goals achieved by this call, in display order.
  static func update(_ context: ModelContext, on day: Date) throws -> [Goal] {
    let trips = try context.fetchCount(Queries.completeTrips)
    let activities = try context.fetchCount(Queries.completeActivities)
    var reached: [Goal] = []
    for goal in try context.fetch(Queries.upcomingGoals) {
      if let goal = goal as? TripGoal, goal.tripsNeeded <= trips {
        reached.append(goal)
      } else if let goal = goal as? ActivityGoal, goal.activitiesNeeded <= activities {
        reached.append(goal)
      }
    }
    for goal in reached { goal.dateAchieved = day }
    return reached
  }
}
