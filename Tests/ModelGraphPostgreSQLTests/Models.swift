import Foundation
import ModelGraph

enum Level: String, Codable, Sendable, PersistentValue {
  case junior
  case senior
}

class Team: PersistentModel {
  @Attribute(.unique) var name: String
  @Relationship(deleteRule: .cascade, inverse: \Member.team) var members: [Member]
  @Relationship var tags: [Tag]

  convenience init(name: String) {
    self.init()
    self.name = name
  }
}

class Member: PersistentModel {
  @Attribute var name: String
  @Attribute var score: Int
  @Attribute var rating: Double
  @Attribute var joined: Date
  @Attribute var badge: UUID?
  @Attribute var level: Level
  @Attribute var nicknames: [String]
  @Attribute var photo: Data?
  @Attribute var balance: Decimal
  @Attribute var home: URL?
  @Attribute var flags: UInt
  @Attribute var active: Bool
  @Relationship var team: Team?

  convenience init(name: String, score: Int = 0) {
    self.init()
    self.name = name
    self.score = score
    self.rating = 0.1
    self.joined = Date(timeIntervalSinceReferenceDate: 123_456.789_012_345)
    self.level = .junior
    self.nicknames = []
    self.balance = 0
    self.flags = 0
    self.active = true
  }
}

class Captain: Member {
  @Attribute var since: Int

  convenience init(name: String, since: Int) {
    self.init(name: name)
    self.since = since
  }
}

class Tag: PersistentModel {
  @Attribute var label: String

  convenience init(label: String) {
    self.init()
    self.label = label
  }
}

enum Earlier {
  class Gadget: PersistentModel {
    @Attribute var name: String
  }
}

enum Later {
  class Gadget: PersistentModel {
    @Attribute var name: String
    @Attribute var weight: Int
  }
}

/// A desk that does not know its clerks.
class Desk: PersistentModel {
  @Attribute var label: String

  convenience init(label: String) {
    self.init()
    self.label = label
  }
}

/// A clerk at a desk, a to-one relationship without inverse: deleting the desk leaves the
/// reference, which reads as `nil`.
class Clerk: PersistentModel {
  @Attribute var name: String
  @Attribute var score: Int
  @Relationship var desk: Desk?

  convenience init(name: String, score: Int, desk: Desk?) {
    self.init()
    self.name = name
    self.score = score
    self.desk = desk
  }
}

/// The classes of the desk schema.
let deskTypes: [any PersistentModel.Type] = [Desk.self, Clerk.self]

/// Every class of the suites' main schema.
let teamTypes: [any PersistentModel.Type] = [Team.self, Member.self, Captain.self, Tag.self]

enum FirstLayout {
  class Note: PersistentModel {
    @Attribute var title: String
    @Attribute var pages: Int
  }
}

enum SecondLayout {
  class Note: PersistentModel {
    @Attribute var pages: Int
    @Attribute var title: String
  }
}

/// A vehicle's plate is unique among vehicles of every class, and so is its fleet number
/// within a depot; a truck is a vehicle in its own table.
class Vehicle: PersistentModel, IndexedModel {
  @Attribute(.unique) var plate: String
  @Attribute var depot: String
  @Attribute var number: Int
  @Attribute(.unique) var serial: UUID?

  class var indexes: [ModelIndex] { [.unique(\Vehicle.depot, \Vehicle.number)] }

  convenience init(plate: String, depot: String = "North", number: Int = 0) {
    self.init()
    self.plate = plate
    self.depot = depot
    self.number = number
  }
}

class Truck: Vehicle {
  @Attribute var axles: Int
}

/// Every class of the vehicle schema.
let vehicleTypes: [any PersistentModel.Type] = [Vehicle.self, Truck.self]
