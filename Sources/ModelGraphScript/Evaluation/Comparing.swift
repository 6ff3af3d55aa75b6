import Foundation
import ModelGraphCore

/// The runner's comparisons, with the engine's semantics: `nil == nil` is true, an ordering
/// with `nil` on either side is false, numbers compare by value across types, and a NaN
/// (`Double`, or a `Date` of a NaN interval) orders against nothing and equals nothing, but
/// a NaN date is `<=` and `>=` every date (and every date `<=` and `>=` it), as Swift derives
/// `Date`'s `<=` and `>=`. A `Decimal` NaN orders before every number and equals NaN, as
/// Foundation's `Decimal` says.
enum Comparing {
  static func test(
    _ left: RunValue, _ op: Comparison.Operator, _ right: RunValue,
    options: String.CompareOptions, pattern: Pattern?
  ) -> Bool {
    switch op {
    case .equal: return equal(left, right, options)
    case .notEqual: return !equal(left, right, options)
    case .less, .lessOrEqual, .greater, .greaterOrEqual:
      guard case .value(let a) = left, case .value(let b) = right else { return false }
      guard let order = order(a, b, options) else {
        return (op == .lessOrEqual || op == .greaterOrEqual) && isNaNDatePair(a, b)
      }
      switch op {
      case .less: return order < 0
      case .lessOrEqual: return order <= 0
      case .greater: return order > 0
      default: return order >= 0
      }
    case .beginsWith, .endsWith, .contains:
      guard case .value(.string(let subject)) = left, case .value(.string(let needle)) = right
      else { return false }
      if options.isEmpty {
        switch op {
        case .beginsWith: return subject.starts(with: needle)
        case .endsWith: return subject.hasSuffix(needle)
        default: return needle.isEmpty || subject.contains(needle)
        }
      }
      if needle.isEmpty { return true }
      var search = options
      if op == .beginsWith { search.insert(.anchored) }
      if op == .endsWith { search.formUnion([.anchored, .backwards]) }
      return subject.range(of: needle, options: search) != nil
    case .like, .matches:
      guard case .value(.string(let subject)) = left, let pattern else { return false }
      let text = options.contains(.diacriticInsensitive) ? Binder.fold(subject) : subject
      return pattern.matches(text)
    case .in:
      switch right {
      case .objects(let keys):
        guard case .object(let key?) = left else { return false }
        return keys.contains(key)
      case .value(.array(let values)):
        return values.contains { equal(left, .value($0), options) }
      default:
        return false
      }
    case .between:
      guard case .value(.array(let bounds)) = right, bounds.count == 2,
        case .value(let value) = left
      else { return false }
      // `value >= low && value <= high`, each as `test` says.
      let low = order(value, bounds[0], options).map { $0 >= 0 } ?? isNaNDatePair(value, bounds[0])
      let high =
        order(value, bounds[1], options).map { $0 <= 0 } ?? isNaNDatePair(value, bounds[1])
      return low && high
    }
  }

  /// Whether `a` and `b` are dates and either's interval is NaN: then `<=` and `>=` hold, as
  /// Swift derives them for `Date` (`a >= b` is `!(a < b)`), and the engine compares.
  static func isNaNDatePair(_ a: ModelValue, _ b: ModelValue) -> Bool {
    guard case .date(let x) = a, case .date(let y) = b else { return false }
    return x.timeIntervalSinceReferenceDate.isNaN || y.timeIntervalSinceReferenceDate.isNaN
  }

  static func equal(_ left: RunValue, _ right: RunValue, _ options: String.CompareOptions) -> Bool {
    switch (left, right) {
    case (.object(let a), .object(let b)): return a == b
    case (.object(let a), .value(.null)), (.value(.null), .object(let a)): return a == nil
    case (.value(let a), .value(let b)):
      if a.isNull || b.isNull { return a.isNull && b.isNull }
      return order(a, b, options) == 0 || (order(a, b, options) == nil && a == b)
    default: return false
    }
  }

  /// -1, 0 or 1, or `nil` for values that do not order (different types, `nil`, NaN).
  static func order(_ a: ModelValue, _ b: ModelValue, _ options: String.CompareOptions = []) -> Int?
  {
    switch (a, b) {
    case (.string(let x), .string(let y)):
      if options.isEmpty { return x == y ? 0 : (x < y ? -1 : 1) }
      switch x.compare(y, options: options) {
      case .orderedSame: return 0
      case .orderedAscending: return -1
      case .orderedDescending: return 1
      }
    case (.date(let x), .date(let y)):
      return order(x.timeIntervalSinceReferenceDate, y.timeIntervalSinceReferenceDate)
    case (.int(let x), .int(let y)): return x == y ? 0 : (x < y ? -1 : 1)
    case (.bool(let x), .bool(let y)): return x == y ? 0 : (!x ? -1 : 1)
    case (.uuid(let x), .uuid(let y)): return x == y ? 0 : (x.uuidString < y.uuidString ? -1 : 1)
    case (.decimal, _), (_, .decimal):
      // A `Decimal` NaN orders as Foundation's `Decimal` (and the engine) orders it: before
      // every number, and equal to NaN.
      if let x = Arithmetic.decimal(a), let y = Arithmetic.decimal(b) {
        return x == y ? 0 : (x < y ? -1 : 1)
      }
      // A double beyond Decimal's range (or infinite) still orders against a Decimal.
      guard let x = Arithmetic.double(a), let y = Arithmetic.double(b) else { return nil }
      return order(x, y)
    default:
      guard let x = Arithmetic.double(a), let y = Arithmetic.double(b) else {
        return a == b ? 0 : nil
      }
      return order(x, y)
    }
  }

  /// -1, 0 or 1, or `nil` when either is NaN.
  private static func order(_ x: Double, _ y: Double) -> Int? {
    x < y ? -1 : y < x ? 1 : x == y ? 0 : nil
  }
}
