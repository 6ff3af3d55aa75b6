import Foundation
import ModelGraph

/// The data a first launch seeds: trips with activities and photos, an idea without a trip,
/// and 18 goals (two trips and five activities already done, their goals achieved).
enum SampleData {
  /// Inserts the sample data into `context` (the caller saves).
  static func seed(into context: ModelContext) {
    for sample in trips {
      let trip = Trip(
        name: sample.name, destination: sample.destination, collection: sample.collection,
        startDate: sample.start, endDate: sample.end, createdDate: sample.created)
      context.insert(trip)
      trip.activities = sample.activities.map(Activity.init(name:))
      if sample.isDone {
        for activity in trip.activities { activity.isComplete = true }
        trip.isComplete = true
      }
      if sample.photoBytes > 0 {
        let image = TripImage(data: photo(bytes: sample.photoBytes, seed: sample.name.count))
        image.makeThumbnail()
        trip.images = [image]
      }
    }
    context.insert(Activity(name: "See the aurora from a plane"))
    for goal in goals { context.insert(goal) }
  }

  /// The trip the first launch adds and later launches find.
  static func northernLights() -> Trip {
    let trip = Trip(
      name: "Northern Lights", destination: "Tromsø", collection: .nature,
      startDate: Day.date(2027, 2, 12), endDate: Day.date(2027, 2, 18), createdDate: Day.today)
    trip.activities = [
      Activity(name: "Chase the aurora"), Activity(name: "Dog sledding on the fjords"),
      Activity(name: "Visit the Arctic Cathedral"),
    ]
    let image = TripImage(data: photo(bytes: 8_192, seed: 7))
    image.makeThumbnail()
    trip.images = [image]
    return trip
  }

  /// Deterministic bytes standing in for a photo.
  static func photo(bytes: Int, seed: Int) -> Data {
    Data((0..<bytes).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ seed) })
  }

  private struct SampleTrip {
    var name: String
    var destination: String
    var collection: TripCollection
    var start: Date
    var end: Date
    var created: Date
    var activities: [String]
    var isDone = false
    var photoBytes = 0
  }

  private static let trips: [SampleTrip] = [
    SampleTrip(
      name: "Kyoto in Autumn", destination: "Kyoto", collection: .culture,
      start: Day.date(2024, 11, 10), end: Day.date(2024, 11, 17), created: Day.date(2024, 5, 2),
      activities: ["Walk the Philosopher's Path", "Tea ceremony in Gion", "Fushimi Inari at dawn"],
      isDone: true, photoBytes: 4_096),
    SampleTrip(
      name: "Lisbon Long Weekend", destination: "Lisbon", collection: .cities,
      start: Day.date(2025, 3, 6), end: Day.date(2025, 3, 9), created: Day.date(2024, 12, 1),
      activities: ["Ride tram 28", "Pastéis de Belém"], isDone: true),
    SampleTrip(
      name: "Iceland Ring Road", destination: "Reykjavík", collection: .nature,
      start: Day.date(2026, 8, 1), end: Day.date(2026, 8, 14), created: Day.date(2025, 10, 20),
      activities: [
        "Soak in the Blue Lagoon", "Drive the Golden Circle", "Hike Skaftafell glacier",
      ],
      photoBytes: 2_048),
    SampleTrip(
      name: "Patagonia Trek", destination: "El Chaltén", collection: .nature,
      start: Day.date(2027, 1, 5), end: Day.date(2027, 1, 20), created: Day.date(2025, 6, 11),
      activities: ["Hike to Laguna de los Tres", "See the Perito Moreno glacier"]),
    SampleTrip(
      name: "Paris Museums", destination: "Paris", collection: .culture,
      start: Day.date(2026, 10, 2), end: Day.date(2026, 10, 6), created: Day.date(2026, 1, 15),
      activities: ["Louvre at opening time", "Musée d'Orsay"]),
    SampleTrip(
      name: "New York City", destination: "New York", collection: .cities,
      start: Day.date(2026, 12, 10), end: Day.date(2026, 12, 15), created: Day.date(2026, 2, 3),
      activities: ["Walk the High Line", "See a Broadway show"]),
    SampleTrip(
      name: "Safari in Tanzania", destination: "Arusha", collection: .nature,
      start: Day.date(2027, 7, 1), end: Day.date(2027, 7, 12), created: Day.date(2026, 3, 28),
      activities: ["Game drive in the Serengeti"]),
    SampleTrip(
      name: "Rome in Spring", destination: "Rome", collection: .culture,
      start: Day.date(2027, 4, 10), end: Day.date(2027, 4, 16), created: Day.date(2026, 4, 19),
      activities: ["Vatican Museums", "Cacio e pepe in Trastevere"]),
    SampleTrip(
      name: "Barcelona Beaches", destination: "Barcelona", collection: .cities,
      start: Day.date(2026, 7, 15), end: Day.date(2026, 7, 22), created: Day.date(2026, 5, 7),
      activities: ["Sagrada Família tour"], photoBytes: 1_024),
  ]

  /// 18 goals, nine of each kind; the ones the finished trips reached carry their dates.
  private static var goals: [Goal] {
    let tripNeeds = [1, 2, 3, 4, 5, 6, 8, 10, 12]
    let activityNeeds = [1, 3, 5, 8, 10, 15, 20, 25, 30]
    let achieved: [String: Date] = [
      "Finish 1 trip": Day.date(2024, 11, 17), "Finish 2 trips": Day.date(2025, 3, 9),
      "Do 1 activity": Day.date(2024, 11, 11), "Do 3 activities": Day.date(2024, 11, 16),
      "Do 5 activities": Day.date(2025, 3, 8),
    ]
    var goals: [Goal] = []
    for (index, (trips, activities)) in zip(tripNeeds, activityNeeds).enumerated() {
      let tripGoal = TripGoal(
        title: trips == 1 ? "Finish 1 trip" : "Finish \(trips) trips", sortOrder: 2 * index)
      tripGoal.tripsNeeded = trips
      let activityGoal = ActivityGoal(
        title: activities == 1 ? "Do 1 activity" : "Do \(activities) activities",
        sortOrder: 2 * index + 1)
      activityGoal.activitiesNeeded = activities
      goals += [tripGoal, activityGoal]
    }
    for goal in goals { goal.dateAchieved = achieved[goal.title] }
    return goals
  }
}
