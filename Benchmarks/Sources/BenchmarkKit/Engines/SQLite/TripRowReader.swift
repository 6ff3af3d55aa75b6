import Foundation

/// Materializes a trip from the 13 columns of ``SQLiteLayout/tripColumns(_:)``.
enum TripRowReader {
  /// The trip's row id (column 1).
  @inline(__always)
  static func id(_ row: SQLiteStatement) -> Int64 {
    row.int64(1)
  }

  /// The start date in seconds (column 4), without materializing.
  @inline(__always)
  static func startDate(_ row: SQLiteStatement) -> Int64 {
    row.int64(4)
  }

  /// A plain trip of the row's class with every stored property.
  static func trip(_ row: SQLiteStatement) -> PlainTrip {
    let record = TripRecord(
      kind: TripKind(rawValue: Int(row.int64(0))) ?? .trip, name: row.string(2),
      destination: row.string(3), startDate: row.int64(4), endDate: row.int64(5),
      identifier: row.uuid(6), budget: row.double(7), company: row.optionalString(8),
      expenseReport: row.optionalString(9), meetingAgenda: row.optionalString(10),
      reason: row.isNull(11) ? nil : TripReason(rawValue: Int(row.int64(11))),
      companions: row.isNull(12) ? [] : companions(row.string(12)))
    return PlainTrip.make(record)
  }

  /// Companions are stored as one text, joined by commas (split on UTF-8 bytes).
  static func companions(_ text: String) -> [String] {
    guard !text.isEmpty else { return [] }
    return text.utf8.split(separator: UInt8(ascii: ",")).map { String(Substring($0)) }
  }
}
