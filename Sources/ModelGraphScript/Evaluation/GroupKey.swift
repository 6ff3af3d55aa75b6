import ModelGraphCore

/// A group's value as a dictionary key: every `Double` NaN is one group, and every `Date` of a
/// NaN interval another (NaN is not equal to itself, so each was a group of its own that found
/// none of its values).
struct GroupKey: Hashable {
  /// The group's value.
  let value: ModelValue

  /// The value is a `Double` NaN or a `Date` of a NaN interval.
  var isNaN: Bool { Self.isNaN(value) }

  /// `value` is a `Double` NaN or a `Date` of a NaN interval.
  static func isNaN(_ value: ModelValue) -> Bool {
    switch value {
    case .double(let number): number.isNaN
    case .date(let date): date.timeIntervalSinceReferenceDate.isNaN
    default: false
    }
  }

  static func == (a: GroupKey, b: GroupKey) -> Bool {
    a.isNaN && b.isNaN ? a.isDate == b.isDate : a.value == b.value
  }

  func hash(into hasher: inout Hasher) {
    if isNaN { hasher.combine(isDate) } else { hasher.combine(value) }
  }

  /// The value is a date.
  private var isDate: Bool { if case .date = value { true } else { false } }
}
