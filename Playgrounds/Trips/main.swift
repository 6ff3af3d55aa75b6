// The inheritance guide as a program: Trip with BusinessTrip and PersonalTrip subclasses and
// accommodations; deep and shallow fetches, type filters, subclass properties, cascade delete
// through a base-class reference, and exact-class fetches. Everything lives in memory.
//
//     swift run trips-playground

import Foundation
import ModelGraph

let container = try ModelContainer(
  for: Trip.self, configurations: ModelConfiguration(isStoredInMemoryOnly: true))
let context = ModelContext(container)

let paris = Trip(name: "Spring in Paris", destination: "Paris", startDate: Days.march1)
let summit = BusinessTrip(name: "Summit", destination: "Berlin", startDate: Days.april10)
summit.company = "Acme"
summit.perDiem = 80
let fair = BusinessTrip(name: "Trade fair", destination: "Milan", startDate: Days.june5)
fair.company = "Globex"
fair.perDiem = 95
let beach = PersonalTrip(name: "Beach", destination: "Crete", startDate: Days.may20)
beach.reason = .vacation
beach.companions = ["Ann", "Bo"]
let reunion = PersonalTrip(name: "Reunion", destination: "Dublin", startDate: Days.july15)
reunion.reason = .family
reunion.companions = ["Cy"]
for trip in [paris, summit, fair, beach, reunion] { context.insert(trip) }
summit.accommodations = [Accommodation(name: "Hotel Adlon"), Accommodation(name: "Airport inn")]
beach.accommodations = [Accommodation(name: "Seaside villa")]
try context.save()

print("Deep fetch of Trip (every class), by start date:")
for trip in try context.fetch(TripKind.all.descriptor) {
  print("  \(type(of: trip)): \(describe(trip))")
}

print("Shallow fetch of BusinessTrip:")
let business = try context.fetch(FetchDescriptor<BusinessTrip>(sortBy: [SortDescriptor(\.name)]))
for trip in business { print("  \(trip.name) for \(trip.company)") }

for kind in TripKind.allCases {
  let names = try context.fetch(kind.descriptor).map(\.name)
  print("Filter \(kind.rawValue): \(names.joined(separator: ", "))")
}

let vacation = Reason.vacation  // the macro cannot name an enum case: capture it first
let holidays = try context.fetch(
  FetchDescriptor<Trip>(
    predicate: #Predicate {
      if let trip = $0 as? PersonalTrip { trip.reason == vacation } else { false }
    }))
print("Personal trips for a vacation (as? filter): \(holidays.map(\.name))")
let generous = try context.fetch(
  FetchDescriptor<Trip>(
    predicate: #Predicate { ($0 as? BusinessTrip)?.perDiem ?? 0 > 90 }))
print("Business trips with a per diem over 90: \(generous.map(\.name))")

var exact = FetchDescriptor<Trip>(sortBy: [SortDescriptor(\.name)])
exact.includesSubclasses = false
print("Exactly Trip (includesSubclasses = false): \(try context.fetch(exact).map(\.name))")

let stays = try context.fetch(FetchDescriptor<Accommodation>(sortBy: [SortDescriptor(\.name)]))
print("Accommodations: \(stays.map { "\($0.name) (\($0.trip?.name ?? "-"))" })")
let someTrip: Trip = try context.fetch(
  FetchDescriptor<Trip>(predicate: #Predicate { $0.name == "Summit" }))[0]
print("Deleting \(someTrip.name) through a Trip reference (it is a \(type(of: someTrip))):")
context.delete(someTrip)
try context.save()
let left = try context.fetch(FetchDescriptor<Accommodation>(sortBy: [SortDescriptor(\.name)]))
print("  accommodations left: \(left.map(\.name))")
print("  trips left: \(try context.fetchCount(FetchDescriptor<Trip>()))")
