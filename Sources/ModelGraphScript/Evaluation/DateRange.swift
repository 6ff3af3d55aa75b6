import Foundation

/// The dates a script writes as literals, 0001-01-01T00:00:00Z up to 10000-01-01: date
/// arithmetic whose result falls outside is an error, not a date printed as another one
/// (Foundation's formatter clamps) or as text no script reads back.
enum DateRange {
  private static let first = DateLiteral.parse("0001-01-01") ?? .distantPast
  private static let end =
    DateLiteral.parse("9999-12-31T23:59:59Z")?.addingTimeInterval(1) ?? .distantFuture

  /// What is said of a date out of the range.
  static let message = "the date is out of the range of dates (0001-01-01 to 9999-12-31)"

  /// `date`.
  ///
  /// - Throws: ``EvaluationError`` when it is out of the range (or not a number of seconds).
  static func checked(_ date: Date) throws -> Date {
    guard contains(date) else { throw EvaluationError(message: message) }
    return date
  }

  /// Whether `date` is in the range (a NaN interval is not).
  static func contains(_ date: Date) -> Bool {
    date >= first && date < end
  }
}
