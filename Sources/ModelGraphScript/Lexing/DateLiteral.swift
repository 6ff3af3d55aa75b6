import Foundation

/// Dates in scripts and output: ISO 8601, UTC unless the text gives an offset.
enum DateLiteral {
  /// The date `text` names: `2026-05-01`, `2026-05-01T09:30:00Z`, `2026-05-01T09:30:00.250+02:00`
  /// or `2026-05-01T09:30` (UTC); `nil` when it is none of those or not a real date.
  static func parse(_ text: String) -> Date? {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = TimeZone(identifier: "UTC")!
    let parts = text.split(separator: "T", maxSplits: 1, omittingEmptySubsequences: false)
    let day = parts[0].split(separator: "-").compactMap { Int($0) }
    guard day.count == 3, parts[0].count == 10 else { return nil }
    var components = DateComponents(year: day[0], month: day[1], day: day[2])
    var offset = 0
    var fraction = 0.0
    if parts.count == 2 {
      var time = Substring(parts[1])
      if time.hasSuffix("Z") {
        time = time.dropLast()
      } else if let sign = time.lastIndex(where: { $0 == "+" || $0 == "-" }) {
        let zone = time[time.index(after: sign)...].split(separator: ":").compactMap { Int($0) }
        guard zone.count == 2, (0...23).contains(zone[0]), (0...59).contains(zone[1]) else {
          return nil
        }
        offset = (zone[0] * 3600 + zone[1] * 60) * (time[sign] == "-" ? -1 : 1)
        time = time[..<sign]
      }
      let clock = time.split(separator: ":", omittingEmptySubsequences: false)
      guard clock.count == 2 || clock.count == 3 else { return nil }
      guard let hour = Int(clock[0]), let minute = Int(clock[1]) else { return nil }
      components.hour = hour
      components.minute = minute
      if clock.count == 3 {
        guard let seconds = Double(clock[2]), seconds >= 0, seconds < 61 else { return nil }
        components.second = Int(seconds)
        fraction = seconds - Double(Int(seconds))
      }
    }
    guard components.isValidDate(in: calendar), let date = calendar.date(from: components) else {
      return nil
    }
    return date.addingTimeInterval(fraction - Double(offset))
  }

  /// `2026-05-01T09:30:00Z`, with milliseconds (rounded to the nearest) when the date has a
  /// fraction of a second; `nan`, `inf` or `-inf` for a date of such an interval (which a typed
  /// process can store), as a `Double` shows, not the date Foundation's formatter clamps it to.
  static func format(_ date: Date) -> String {
    let seconds = date.timeIntervalSinceReferenceDate
    guard seconds.isFinite else { return seconds.isNaN ? "nan" : seconds < 0 ? "-inf" : "inf" }
    return text(date, digits: 3)
  }

  /// The date as a literal that ``parse(_:)`` reads back as the same date: the fewest fraction
  /// digits (3, 6, 9, …) that do; `nil` for a date out of the years 0001 to 9999 (or of a NaN
  /// interval), which no literal holds.
  static func literal(_ date: Date) -> String? {
    guard DateRange.contains(date) else { return nil }
    var text = format(date)
    for digits in [3, 6, 9, 12, 15, 17, 20] {
      text = self.text(date, digits: digits)
      if parse(text) == date { break }
    }
    return text
  }

  /// The date with its fraction of a second rounded to `digits` digits (none for a whole
  /// second).
  private static func text(_ date: Date, digits: Int) -> String {
    let seconds = date.timeIntervalSinceReferenceDate
    var whole = seconds.rounded(.down)
    if whole == seconds { return date.formatted(.iso8601) }
    // printf rounds the binary fraction's exact decimal value; "1.000" carries.
    var fraction = String(format: "%.\(digits)f", seconds - whole)
    if fraction.hasPrefix("1") {
      whole += 1
      fraction = "0." + String(repeating: "0", count: digits)
    }
    let base = Date(timeIntervalSinceReferenceDate: whole).formatted(.iso8601)
    return base.dropLast() + fraction.dropFirst() + "Z"
  }
}
