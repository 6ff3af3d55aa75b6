import ModelGraph

// The trip hierarchy with its accommodations and activities (prefixed `RL`): accommodations
// point back at a base-class `RLTrip?` that holds business or personal trips.

class RLTrip: PersistentModel {
  @Attribute var name: String
  @Attribute(.preserveValueOnDeletion) var code: String?
  @Relationship(deleteRule: .cascade, inverse: \RLAccommodation.trip)
  var accommodations: [RLAccommodation]
  @Relationship(deleteRule: .cascade, inverse: \RLActivity.trip) var activities: [RLActivity]
  @Relationship var travelers: [RLTraveler]

  convenience init(name: String, code: String? = nil) {
    self.init()
    self.name = name
    self.code = code
  }
}

/// Expenses go with the business trip.
class RLBusinessTrip: RLTrip {
  @Attribute var company: String = "Acme"
  @Relationship(deleteRule: .cascade, inverse: \RLExpense.trip) var expenses: [RLExpense]
}

/// A personal trip that still has visas cannot be deleted.
class RLPersonalTrip: RLTrip {
  @Attribute var reason: String = "vacation"
  @Relationship(deleteRule: .deny, inverse: \RLVisa.trip) var visas: [RLVisa]
}

class RLAccommodation: PersistentModel {
  @Attribute var name: String
  @Relationship var trip: RLTrip?

  convenience init(name: String) {
    self.init()
    self.name = name
  }
}

/// A hotel's rooms go with it.
class RLHotel: RLAccommodation {
  @Attribute var stars = 3
  @Relationship(deleteRule: .cascade, inverse: \RLRoom.hotel) var rooms: [RLRoom]
}

class RLCampsite: RLAccommodation {
  @Attribute var pitches = 10
}

class RLRoom: PersistentModel {
  @Attribute(.preserveValueOnDeletion) var number: Int
  @Relationship var hotel: RLHotel?
  @Relationship(deleteRule: .cascade, inverse: \RLRoomNote.room) var notes: [RLRoomNote]

  convenience init(number: Int) {
    self.init()
    self.number = number
  }
}

class RLRoomNote: PersistentModel {
  @Attribute var text: String
  @Relationship var room: RLRoom?

  convenience init(text: String) {
    self.init()
    self.text = text
  }
}

class RLActivity: PersistentModel {
  @Attribute var name: String
  @Relationship var trip: RLTrip?

  convenience init(name: String) {
    self.init()
    self.name = name
  }
}

class RLExpense: PersistentModel {
  @Attribute var amount: Int
  @Relationship var trip: RLBusinessTrip?

  convenience init(amount: Int) {
    self.init()
    self.amount = amount
  }
}

class RLVisa: PersistentModel {
  @Attribute var country: String
  @Relationship var trip: RLPersonalTrip?

  convenience init(country: String) {
    self.init()
    self.country = country
  }
}

/// A traveler on many trips of either kind, in the order they were added.
class RLTraveler: PersistentModel {
  @Attribute var name: String
  @Relationship(inverse: \RLTrip.travelers) var trips: [RLTrip]

  convenience init(name: String) {
    self.init()
    self.name = name
  }
}

/// A business trip with a name and a company.
func makeBusinessTrip(_ name: String, company: String = "Acme") -> RLBusinessTrip {
  let trip = RLBusinessTrip(name: name)
  trip.company = company
  return trip
}

/// A personal trip with a name.
func makePersonalTrip(_ name: String) -> RLPersonalTrip {
  RLPersonalTrip(name: name)
}
