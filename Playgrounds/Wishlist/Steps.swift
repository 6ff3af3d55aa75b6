import Foundation
import ModelGraph

/// The steps of one launch, each printing what it did.
struct Steps {
  let context: ModelContext

  /// Seeds the sample data on a first launch; reports what is stored on later ones.
  func seedIfEmpty() throws {
    if try context.fetchCount(FetchDescriptor<Trip>()) == 0 {
      SampleData.seed(into: context)
      try context.save()
      print("First launch: seeded \(try counts())")
    } else {
      print("Welcome back: the store holds \(try counts())")
    }
  }

  /// Adds "Northern Lights" unless an earlier launch did.
  func addNorthernLights() throws {
    if let trip = try context.fetch(Queries.trip(named: "Northern Lights")).first {
      print(
        "Found \"\(trip.name)\" from an earlier launch: \(trip.destination), created "
          + "\(Day.text(trip.createdDate)), \(trip.activities.count) activities, "
          + "photos of \(trip.images.map { "\($0.data.count)" }.joined(separator: ", ")) bytes")
      return
    }
    let trip = SampleData.northernLights()
    context.insert(trip)
    try context.save()
    let image = trip.images[0]
    print(
      "Added \"\(trip.name)\": \(trip.destination), \(Day.text(trip.startDate)) to "
        + "\(Day.text(trip.endDate)), \(trip.activities.count) activities, a "
        + "\(image.data.count)-byte photo with a \(image.thumbnail?.count ?? 0)-byte thumbnail")
  }

  /// Completes the activities of one trip one by one; the last one completes the trip.
  func completeActivities(of name: String) throws {
    print("\nCompleting the activities of \(name):")
    guard let trip = try context.fetch(Queries.trip(named: name)).first else {
      print("  no such trip")
      return
    }
    if trip.isComplete {
      print("  already complete")
      return
    }
    for activity in trip.activities where !activity.isComplete {
      activity.complete()
      print("  \(activity.name): done; trip complete: \(trip.isComplete)")
    }
    for goal in try GoalTracker.update(context, on: Day.today) {
      print("  goal achieved: \(goal.title)")
    }
    try context.save()
  }

  /// Prints achieved goals (newest first) and upcoming ones (in display order).
  func showGoals() throws {
    print("\nAchieved goals, most recent first:")
    for goal in try context.fetch(Queries.achievedGoals) {
      print("  \(Day.text(goal.dateAchieved!))  \(goal.title)")
    }
    let upcoming = try context.fetch(Queries.upcomingGoals)
    let first = upcoming.prefix(4).map(\.title).joined(separator: ", ")
    print("Upcoming goals (\(upcoming.count)): \(first), …")
  }

  /// Prints the five most recently created trips and each collection's trips.
  func showTrips() throws {
    print("\nThe 5 most recently created trips:")
    for trip in try context.fetch(Queries.recentTrips(5)) {
      print("  \(Day.text(trip.createdDate))  \(trip.name)")
    }
    for collection in TripCollection.allCases {
      let names = try context.fetch(Queries.trips(in: collection)).map(\.name)
      print("Collection \(collection.rawValue): \(names.joined(separator: ", "))")
    }
  }

  /// Searches trips and the activities of trips; an empty text lists the 3 most recently
  /// created trips.
  func search(_ text: String) throws {
    print("\nSearch \"\(text)\":")
    if text.isEmpty {
      let recent = try context.fetch(Queries.recentTrips(3)).map(\.name)
      print("  recent trips: \(recent.joined(separator: ", "))")
      return
    }
    let trips = try context.fetch(Queries.trips(matching: text))
    print("  trips: \(list(trips.map { "\($0.name) (\($0.destination))" }))")
    let activities = try context.fetch(Queries.activities(matching: text))
    let found = activities.map { "\($0.name) (\($0.trip?.name ?? "-"))" }
    print("  activities: \(list(found))")
  }

  /// Removes a trip; its activities and photos go with it (cascade).
  func remove(_ name: String) throws {
    print("\nRemoving \(name):")
    guard let trip = try context.fetch(Queries.trip(named: name)).first else {
      print("  already removed by an earlier launch")
      return
    }
    let before = try counts()
    context.delete(trip)
    try context.save()
    print("  before: \(before)\n  after:  \(try counts())")
  }

  /// Tries to add a second trip with a name already taken: the save throws and is reported.
  func addDuplicate(_ name: String) throws {
    print("\nAdding a second trip named \"\(name)\":")
    context.insert(
      Trip(
        name: name, destination: "Abisko", collection: .nature, startDate: Day.date(2027, 3, 1),
        endDate: Day.date(2027, 3, 5), createdDate: Day.today))
    do {
      try context.save()
      print("  saved (unexpected: names are unique)")
    } catch let error as ModelError {
      print("  the save failed, nothing was stored:")
      print(error.description.split(separator: "\n").map { "    \($0)" }.joined(separator: "\n"))
      context.rollback()
      let count = try context.fetchCount(Queries.trip(named: name))
      print("  after rollback: \(count) trip named \"\(name)\"")
    }
  }

  /// `items` joined with commas, or "none".
  private func list(_ items: [String]) -> String {
    items.isEmpty ? "none" : items.joined(separator: ", ")
  }

  /// Object counts per class, as one line.
  func counts() throws -> String {
    let trips = try context.fetchCount(FetchDescriptor<Trip>())
    let activities = try context.fetchCount(FetchDescriptor<Activity>())
    let images = try context.fetchCount(FetchDescriptor<TripImage>())
    let goals = try context.fetchCount(FetchDescriptor<Goal>())
    return "\(trips) trips, \(activities) activities, \(images) photos, \(goals) goals"
  }
}
