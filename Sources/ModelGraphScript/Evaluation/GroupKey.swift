import ModelGraphCore

/// A group's value as a dictionary key: every `Double` NaN is one group (NaN is not equal to
/// itself, so each was a group of its own that found none of its values).
struct GroupKey: Hashable {
  /// The group's value.
  let value: ModelValue

  /// The value is a `Double` NaN.
  var isNaN: Bool { Self.isNaN(value) }

  /// `value` is a `Double` NaN.
  static func isNaN(_ value: ModelValue) -> Bool {
    if case .double(let number) = value { number.isNaN } else { false }
  }

  static func == (a: GroupKey, b: GroupKey) -> Bool {
    a.isNaN && b.isNaN || a.value == b.value
  }

  func hash(into hasher: inout Hasher) {
    if isNaN { hasher.combine(Double.nan.bitPattern) } else { hasher.combine(value) }
  }
}
