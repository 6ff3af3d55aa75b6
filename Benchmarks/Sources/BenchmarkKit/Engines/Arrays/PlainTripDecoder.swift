import Foundation

/// Reads what ``PlainTripEncoder`` wrote back into plain trips.
package struct PlainTripDecoder {
  private let bytes: UnsafeRawBufferPointer
  private var offset = 0

  /// A decoder over `bytes`, which must outlive it.
  package init(_ bytes: UnsafeRawBufferPointer) {
    self.bytes = bytes
  }

  /// Decodes every trip with its children.
  ///
  /// - Throws: ``BenchmarkError`` if the bytes are not a whole file of this format.
  package mutating func decode() throws -> [PlainTrip] {
    guard try take(4).elementsEqual("MGBA".utf8) else {
      throw BenchmarkError("arrays file: bad magic")
    }
    let count = Int(try read(UInt64.self))
    guard count <= bytes.count else { throw BenchmarkError("arrays file: bad trip count") }
    var trips: [PlainTrip] = []
    trips.reserveCapacity(count)
    for _ in 0..<count { trips.append(try decodeTrip()) }
    guard offset == bytes.count else { throw BenchmarkError("arrays file: trailing bytes") }
    return trips
  }

  private mutating func decodeTrip() throws -> PlainTrip {
    guard let kind = TripKind(rawValue: Int(try read(UInt8.self))) else {
      throw BenchmarkError("arrays file: bad kind at \(offset)")
    }
    var record = try decodeBase(kind)
    switch kind {
    case .business:
      record.company = try readString()
      record.expenseReport = try readOptionalString()
      record.meetingAgenda = try readOptionalString()
    case .personal:
      record.reason = TripReason(rawValue: Int(try read(UInt8.self)))
      let companions = Int(try read(UInt32.self))
      for _ in 0..<companions { record.companions.append(try readString()) }
    case .trip:
      break
    }
    let trip = PlainTrip.make(record)
    let stays = Int(try read(UInt32.self))
    trip.accommodations.reserveCapacity(stays)
    for _ in 0..<stays {
      let name = try readString()
      let rate = Double(bitPattern: try read(UInt64.self))
      trip.accommodations.append(PlainAccommodation(name: name, nightlyRate: rate, trip: trip))
    }
    let activities = Int(try read(UInt32.self))
    trip.activities.reserveCapacity(activities)
    for _ in 0..<activities {
      let name = try readString()
      let isComplete = try read(UInt8.self) != 0
      let created = Date(timeIntervalSince1970: Double(bitPattern: try read(UInt64.self)))
      trip.activities.append(
        PlainActivity(name: name, isComplete: isComplete, dateCreated: created, trip: trip))
    }
    return trip
  }

  private mutating func decodeBase(_ kind: TripKind) throws -> TripRecord {
    let name = try readString()
    let destination = try readString()
    let start = Double(bitPattern: try read(UInt64.self))
    let end = Double(bitPattern: try read(UInt64.self))
    let first = try read(UInt64.self)
    let identifier = DataSet.identifier(first, try read(UInt64.self))
    let budget = Double(bitPattern: try read(UInt64.self))
    return TripRecord(
      kind: kind, name: name, destination: destination, startDate: Int64(start),
      endDate: Int64(end), identifier: identifier, budget: budget, company: nil,
      expenseReport: nil, meetingAgenda: nil, reason: nil, companions: [])
  }

  private mutating func take(_ count: Int) throws -> UnsafeRawBufferPointer.SubSequence {
    guard count >= 0, bytes.count - offset >= count else {
      throw BenchmarkError("arrays file: truncated at \(offset)")
    }
    defer { offset += count }
    return bytes[offset..<(offset + count)]
  }

  private mutating func read<T: FixedWidthInteger>(_: T.Type) throws -> T {
    let slice = try take(MemoryLayout<T>.size)
    return T(littleEndian: bytes.loadUnaligned(fromByteOffset: slice.startIndex, as: T.self))
  }

  private mutating func readString() throws -> String {
    let count = Int(try read(UInt32.self))
    let slice = try take(count)
    return String(decoding: UnsafeRawBufferPointer(rebasing: slice), as: UTF8.self)
  }

  private mutating func readOptionalString() throws -> String? {
    try read(UInt8.self) == 0 ? nil : try readString()
  }
}
