package import Foundation

/// Writes plain trips in the arrays engine's own binary format.
///
/// Layout, all little-endian: `"MGBA"`, trip count (UInt64), then per trip: kind (UInt8), name,
/// destination, start and end date (Float64 seconds since 1970), identifier (16 bytes), budget
/// (Float64), the subclass's properties, then accommodations (UInt32 count, name, rate) and
/// activities (UInt32 count, name, isComplete as UInt8, dateCreated). Strings are a UInt32 byte
/// count and UTF-8; optionals a UInt8 flag first.
package struct PlainTripEncoder {
  /// The encoded bytes.
  package private(set) var data = Data()

  /// An encoder with room for `capacity` bytes.
  package init(capacity: Int) {
    data.reserveCapacity(capacity)
  }

  /// Encodes every trip with its children.
  package mutating func encode(_ trips: [PlainTrip]) {
    data.append(contentsOf: Array("MGBA".utf8))
    append(UInt64(trips.count))
    for trip in trips { encode(trip) }
  }

  private mutating func encode(_ trip: PlainTrip) {
    switch trip {
    case let business as PlainBusinessTrip:
      append(UInt8(TripKind.business.rawValue))
      encodeBase(trip)
      append(business.company)
      append(optional: business.expenseReport)
      append(optional: business.meetingAgenda)
    case let personal as PlainPersonalTrip:
      append(UInt8(TripKind.personal.rawValue))
      encodeBase(trip)
      append(UInt8(personal.reason.rawValue))
      append(UInt32(personal.companions.count))
      for companion in personal.companions { append(companion) }
    default:
      append(UInt8(TripKind.trip.rawValue))
      encodeBase(trip)
    }
    append(UInt32(trip.accommodations.count))
    for stay in trip.accommodations {
      append(stay.name)
      append(stay.nightlyRate.bitPattern)
    }
    append(UInt32(trip.activities.count))
    for activity in trip.activities {
      append(activity.name)
      append(UInt8(activity.isComplete ? 1 : 0))
      append(activity.dateCreated.timeIntervalSince1970.bitPattern)
    }
  }

  private mutating func encodeBase(_ trip: PlainTrip) {
    append(trip.name)
    append(trip.destination)
    append(trip.startDate.timeIntervalSince1970.bitPattern)
    append(trip.endDate.timeIntervalSince1970.bitPattern)
    withUnsafeBytes(of: trip.identifier.uuid) { data.append(contentsOf: $0) }
    append(trip.budget.bitPattern)
  }

  private mutating func append<T: FixedWidthInteger>(_ value: T) {
    withUnsafeBytes(of: value.littleEndian) { data.append(contentsOf: $0) }
  }

  private mutating func append(_ string: String) {
    var string = string
    string.withUTF8 { utf8 in
      append(UInt32(utf8.count))
      data.append(contentsOf: utf8)
    }
  }

  private mutating func append(optional string: String?) {
    if let string {
      append(UInt8(1))
      append(string)
    } else {
      append(UInt8(0))
    }
  }
}
