import Foundation
import ModelGraph

/// The kind of a query-test trip, stored as its raw string.
enum QKind: String, Codable, Sendable, PersistentValue, CaseIterable {
  case city
  case beach
  case mountain
}

/// Why a query-test personal trip is taken; `Comparable` by declaration order (not by the
/// stored raw value), so ordering it is left to Foundation.
enum QReason: Int, Codable, Sendable, PersistentValue, CaseIterable, Comparable {
  case vacation = 2
  case family = 0
  case adventure = 1

  static func < (lhs: QReason, rhs: QReason) -> Bool {
    allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
  }
}

/// The base class of the query-test hierarchy, with ordered indexes on `start`, `nights`,
/// `name` and `code` and a hash index on `kind`.
class QTrip: PersistentModel, IndexedModel {
  @Attribute var name: String
  @Attribute var start: Date
  @Attribute var budget: Double
  @Attribute var nights: Int
  @Attribute var small: Int16
  @Attribute var rating: Double?
  @Attribute var code: String?
  @Attribute var tags: [String]
  @Attribute var kind: QKind
  @Relationship(deleteRule: .cascade, inverse: \QStay.trip) var stays: [QStay]
  @Transient var scratch = 0

  /// A computed property: a predicate on it cannot be translated.
  var label: String { name + "!" }

  /// A computed property with a setter that transforms: not mistaken for `name`.
  var shout: String {
    get { name.uppercased() }
    set { name = newValue.lowercased() }
  }

  class var indexes: [ModelIndex] {
    [
      .ordered(\QTrip.start), .ordered(\QTrip.nights), .hash(\QTrip.kind), .ordered(\QTrip.code),
      .ordered(\QTrip.name),
    ]
  }
}

/// A business trip, with a hash index on `company`.
class QBusiness: QTrip {
  @Attribute var company: String

  override class var indexes: [ModelIndex] { [.hash(\QBusiness.company)] }
}

/// A conference trip: the third level of the hierarchy.
final class QConference: QBusiness {
  @Attribute var talks: Int
}

/// A personal trip.
final class QPersonal: QTrip {
  @Attribute var reason: QReason
}

/// A stay of a trip; its unique serial number has a hash index without a declaration.
final class QStay: PersistentModel {
  @Attribute(.unique) var serial: Int
  @Attribute var name: String
  @Attribute var rate: Double
  @Relationship var trip: QTrip?
}
