import Foundation

/// A line about a trip, reading the properties only its subclass has with `if let … as?`.
func describe(_ trip: Trip) -> String {
  var line = "\(trip.name) to \(trip.destination)"
  if let business = trip as? BusinessTrip {
    line += " [business: \(business.company), per diem \(business.perDiem)]"
  } else if let personal = trip as? PersonalTrip {
    line += " [personal: \(personal.reason), with \(personal.companions.joined(separator: " & "))]"
  } else {
    line += " [trip]"
  }
  return line
}

/// Seconds since 1970 of a few fixed days (UTC), so the output never changes.
enum Days {
  static let march1 = Date(timeIntervalSince1970: 1_772_323_200)
  static let april10 = Date(timeIntervalSince1970: 1_775_779_200)
  static let may20 = Date(timeIntervalSince1970: 1_779_235_200)
  static let june5 = Date(timeIntervalSince1970: 1_780_617_600)
  static let july15 = Date(timeIntervalSince1970: 1_784_073_600)
}
