import Foundation

/// Fixed calendar days, so the playground's output is the same on every run.
enum Day {
  /// The day the playground acts as "today".
  static let today = date(2026, 6, 1)

  private static let calendar: Calendar = {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = TimeZone(identifier: "UTC")!
    return calendar
  }()

  /// Midnight UTC of a calendar day.
  static func date(_ year: Int, _ month: Int, _ day: Int) -> Date {
    calendar.date(from: DateComponents(year: year, month: month, day: day))!
  }

  /// `yyyy-MM-dd` in UTC.
  static func text(_ date: Date) -> String {
    let parts = calendar.dateComponents([.year, .month, .day], from: date)
    return String(format: "%04d-%02d-%02d", parts.year!, parts.month!, parts.day!)
  }
}
