import Foundation
import ModelGraph

/// A seeded store of query-test trips and stays, and the names of its objects.
struct QueryFixture {
  let context: ModelContext
  let trips: [QTrip]
  let stays: [QStay]

  static let epoch = Date(timeIntervalSince1970: 1_700_000_000)
  static let day = 86_400.0
  static let words = [
    "Oslo", "oslo fjord", "Café", "cafe", "CAFÉ au lait", "Zürich", "ZURICH", "naïve", "Ærø",
    "e\u{301}clair", "Straße", "STRASSE", "Trip", "trip 99", "x\r\ny", "Kelvin \u{212A}", "",
  ]
  static let companies = ["Acme", "Globex", "Initech", "Umbrella"]
  static let tags = ["red", "green", "blue", "Red"]

  /// `count` trips of every class with random values (some `nil`), 0–3 stays each; saved.
  static func make(count: Int = 240, seed: UInt64 = 7) throws -> QueryFixture {
    let container = try ModelContainer(
      for: [QTrip.self, QStay.self],
      configurations: [ModelConfiguration(isStoredInMemoryOnly: true)])
    let context = ModelContext(container)
    var random = SplitMix64(seed: seed)
    var trips: [QTrip] = []
    var stays: [QStay] = []
    for index in 0..<count {
      let trip = makeTrip(index, &random)
      context.insert(trip)
      trips.append(trip)
      for number in 0..<Int.random(in: 0...3, using: &random) {
        let stay = QStay()
        stay.serial = stays.count
        stay.name = "\(trip.name) stay \(number)"
        stay.rate = Double(Int.random(in: 40...200, using: &random))
        stay.trip = trip
        stays.append(stay)
      }
    }
    try context.save()
    return QueryFixture(context: context, trips: trips, stays: stays)
  }

  /// A trip of a random class with random values.
  static func makeTrip(_ index: Int, _ random: inout SplitMix64) -> QTrip {
    let trip: QTrip
    switch Int.random(in: 0..<4, using: &random) {
    case 0: trip = QTrip()
    case 1:
      let business = QBusiness()
      business.company = companies.randomElement(using: &random)!
      trip = business
    case 2:
      let conference = QConference()
      conference.company = companies.randomElement(using: &random)!
      conference.talks = Int.random(in: 0..<4, using: &random)
      trip = conference
    default:
      let personal = QPersonal()
      personal.reason = QReason.allCases.randomElement(using: &random)!
      trip = personal
    }
    trip.name = "\(words.randomElement(using: &random)!) \(index)"
    trip.start = epoch + Double(Int.random(in: 0..<120, using: &random)) * day
    trip.budget = Double(Int.random(in: 0..<1_000, using: &random))
    trip.nights = Int.random(in: 0..<10, using: &random)
    trip.small = Int16.random(in: -5...20, using: &random)
    trip.rating =
      Bool.random(using: &random) ? Double(Int.random(in: 0...10, using: &random)) / 2 : nil
    trip.code =
      Int.random(in: 0..<3, using: &random) == 0
      ? nil : "C\(Int.random(in: 0..<20, using: &random))"
    trip.tags = (0..<Int.random(in: 0...2, using: &random)).map { _ in
      tags.randomElement(using: &random)!
    }
    trip.kind = QKind.allCases.randomElement(using: &random)!
    return trip
  }

  /// Every trip of the store, in the unsorted fetch order.
  func allTrips() throws -> [QTrip] { try context.fetch(FetchDescriptor<QTrip>()) }
}

/// The names of `trips` in order.
func names(_ trips: [some QTrip]) -> [String] { trips.map(\.name) }
