import ModelGraph
import Testing

class Vehicle: PersistentModel {
  @Attribute var name: String
  @Attribute var wheels: Int

  convenience init(name: String, wheels: Int = 4) {
    self.init()
    self.name = name
    self.wheels = wheels
  }
}

class Car: Vehicle {
  @Attribute var seats: Int

  convenience init(name: String, seats: Int) {
    self.init(name: name)
    self.seats = seats
  }
}

class SportsCar: Car {
  @Attribute var topSpeed: Double

  convenience init(name: String, topSpeed: Double) {
    self.init(name: name, seats: 2)
    self.topSpeed = topSpeed
  }
}

class Truck: Vehicle {
  @Attribute var payload: Int

  convenience init(name: String, payload: Int) {
    self.init(name: name, wheels: 6)
    self.payload = payload
  }
}

/// A fetch over the vehicle hierarchy and the names it must return.
enum VehicleFetchCase: String, CaseIterable, Sendable {
  case deepVehicle
  case exactVehicle
  case deepCar
  case exactCar
  case deepSportsCar
  case exactSportsCar
  case deepTruck

  var expectedNames: [String] {
    switch self {
    case .deepVehicle: ["bike", "car-a", "car-b", "sports-a", "sports-b", "truck"]
    case .exactVehicle: ["bike"]
    case .deepCar: ["car-a", "car-b", "sports-a", "sports-b"]
    case .exactCar: ["car-a", "car-b"]
    case .deepSportsCar, .exactSportsCar: ["sports-a", "sports-b"]
    case .deepTruck: ["truck"]
    }
  }

  func fetch(_ context: ModelContext) throws -> [Vehicle] {
    switch self {
    case .deepVehicle: try Self.run(Vehicle.self, deep: true, context)
    case .exactVehicle: try Self.run(Vehicle.self, deep: false, context)
    case .deepCar: try Self.run(Car.self, deep: true, context)
    case .exactCar: try Self.run(Car.self, deep: false, context)
    case .deepSportsCar: try Self.run(SportsCar.self, deep: true, context)
    case .exactSportsCar: try Self.run(SportsCar.self, deep: false, context)
    case .deepTruck: try Self.run(Truck.self, deep: true, context)
    }
  }

  private static func run<T: Vehicle>(_: T.Type, deep: Bool, _ context: ModelContext) throws
    -> [Vehicle]
  {
    var descriptor = FetchDescriptor<T>(sortBy: [SortDescriptor(\.name)])
    descriptor.includesSubclasses = deep
    let objects = try context.fetch(descriptor)
    #expect(try context.fetchCount(descriptor) == objects.count)
    return objects
  }
}

/// Seeds the hierarchy leaf first, so ancestors are registered through their descendants.
private func seedVehicles(_ context: ModelContext) {
  context.insert(SportsCar(name: "sports-b", topSpeed: 310))
  context.insert(Car(name: "car-a", seats: 5))
  context.insert(Vehicle(name: "bike", wheels: 2))
  context.insert(Truck(name: "truck", payload: 12_000))
  context.insert(SportsCar(name: "sports-a", topSpeed: 290.5))
  context.insert(Car(name: "car-b", seats: 7))
}

private func className(ofVehicleNamed name: String) -> String {
  if name.hasPrefix("sports") { return "SportsCar" }
  if name.hasPrefix("car") { return "Car" }
  if name.hasPrefix("truck") { return "Truck" }
  return "Vehicle"
}

@Suite("Deep, shallow and exact fetches over Vehicle, Car, SportsCar and Truck")
struct VehicleHierarchyFetchTests {
  @Test(
    "each fetch returns its classes' objects, each as its own class",
    arguments: VehicleFetchCase.allCases)
  func fetches(fetchCase: VehicleFetchCase) throws {
    let container = try makeInMemoryContainer(Vehicle.self)
    let writer = ModelContext(container)
    seedVehicles(writer)
    try writer.save()

    let objects = try fetchCase.fetch(ModelContext(container))
    #expect(objects.map(\.name) == fetchCase.expectedNames)
    for object in objects {
      #expect(String(describing: type(of: object)) == className(ofVehicleNamed: object.name))
    }
  }

  @Test("attributes of every level read back through a fetch of the root")
  func attributesOfEveryLevel() throws {
    let container = try makeInMemoryContainer(Vehicle.self)
    let writer = ModelContext(container)
    seedVehicles(writer)
    try writer.save()

    let vehicles = try ModelContext(container).fetch(
      FetchDescriptor<Vehicle>(sortBy: [SortDescriptor(\.name)]))
    #expect(vehicles.map(\.wheels) == [2, 4, 4, 4, 4, 6])
    #expect(vehicles.compactMap { ($0 as? Car)?.seats } == [5, 7, 2, 2])
    #expect(vehicles.compactMap { ($0 as? SportsCar)?.topSpeed } == [290.5, 310])
    #expect(vehicles.compactMap { ($0 as? Truck)?.payload } == [12_000])
  }

  @Test("a container made for the leaf class registers its ancestors")
  func leafRegistersAncestors() throws {
    let container = try makeInMemoryContainer(SportsCar.self)
    let context = ModelContext(container)
    context.insert(SportsCar(name: "sports-a", topSpeed: 1))
    context.insert(Vehicle(name: "bike"))
    try context.save()
    let names = try ModelContext(container).fetch(
      FetchDescriptor<Vehicle>(sortBy: [SortDescriptor(\.name)])
    ).map(\.name)
    #expect(names == ["bike", "sports-a"])
  }

  @Test("type tests in #Predicate select across three levels")
  func typePredicates() throws {
    let context = try makeInMemoryContext(Vehicle.self)
    seedVehicles(context)
    try context.save()
    let sort = [SortDescriptor(\Vehicle.name)]
    let cars = try context.fetch(
      FetchDescriptor<Vehicle>(predicate: #Predicate { $0 is Car }, sortBy: sort))
    #expect(cars.map(\.name) == ["car-a", "car-b", "sports-a", "sports-b"])
    let sports = try context.fetch(
      FetchDescriptor<Vehicle>(predicate: #Predicate { $0 is SportsCar }, sortBy: sort))
    #expect(sports.map(\.name) == ["sports-a", "sports-b"])
    let notCars = try context.fetch(
      FetchDescriptor<Vehicle>(predicate: #Predicate { !($0 is Car) }, sortBy: sort))
    #expect(notCars.map(\.name) == ["bike", "truck"])
    let roomy = try context.fetch(
      FetchDescriptor<Vehicle>(
        predicate: #Predicate {
          if let car = $0 as? Car { car.seats > 4 } else { false }
        }, sortBy: sort))
    #expect(roomy.map(\.name) == ["car-a", "car-b"])
  }
}
