/// Conjuncts an index can answer: the tested object's attribute equal to one of some values,
/// or within a range.
struct IndexableCondition {
  /// What the index is asked.
  enum Kind {
    /// `attribute == value`, or `[values].contains(attribute)`.
    case equal([ModelValue])
    /// `attribute` within a range (comparisons, or an ASCII prefix as the range it spans).
    case range(IndexValueRange)
  }

  /// The attribute the conjuncts test.
  let attribute: String
  /// What the index is asked.
  let kind: Kind
  /// The positions of the conjuncts the index answers exactly, as bits (a prefix range is
  /// only a superset of the matches, so its conjunct is not among them).
  let covered: ConjunctSet
  /// The positions of the conjuncts whose constant operand is the condition's value: the
  /// equality's (as `lower`), or the range's lower and upper bound's; `nil` for a bound
  /// computed from its constant (a prefix's), which a bound plan cannot read as it is.
  var sources: (lower: Int?, upper: Int?) = (nil, nil)

  /// Whether the index is asked for equal values (else for a range).
  var isEqual: Bool {
    if case .equal = kind { return true }
    return false
  }

  /// The operands of a top-level `&&`.
  static func conjuncts(of predicate: QueryExpression) -> [QueryExpression] {
    if case .and(let operands) = predicate { return operands }
    return [predicate]
  }

  /// The indexable conditions among the conjuncts of `predicate`, with the bounds on one
  /// attribute merged into one range (the first lower and first upper bound found; the whole
  /// predicate is still tested on every row an index yields).
  static func find(in predicate: QueryExpression) -> [IndexableCondition] {
    var found: [IndexableCondition] = []
    var ranges:
      [(
        attribute: String, range: IndexValueRange, covered: ConjunctSet,
        sources: (lower: Int?, upper: Int?)
      )] = []
    func bound(
      _ attribute: String, _ position: Int, isExact: Bool, lower: (ModelValue, Bool)?,
      upper: (ModelValue, Bool)?
    ) {
      let slot =
        ranges.firstIndex { $0.attribute == attribute }
        ?? {
          ranges.append((attribute, IndexValueRange(), ConjunctSet(), (nil, nil)))
          return ranges.count - 1
        }()
      var entry = ranges[slot]
      var used = false
      if entry.range.lower == nil, let lower {
        entry.range.lower = (lower.0, lower.1)
        entry.sources.lower = isExact ? position : nil
        used = true
      }
      if entry.range.upper == nil, let upper {
        entry.range.upper = (upper.0, upper.1)
        entry.sources.upper = isExact ? position : nil
        used = true
      }
      if used && isExact {
        entry.covered.insert(position)
      }
      ranges[slot] = entry
    }
    func add(_ name: String, _ op: QueryComparisonOperator, _ value: ModelValue, _ position: Int) {
      switch op {
      case .equal:
        found.append(
          IndexableCondition(
            attribute: name, kind: .equal([value]), covered: ConjunctSet(position),
            sources: (position, nil)))
      case .notEqual: break
      case .less where !value.isNull:
        bound(name, position, isExact: true, lower: nil, upper: (value, false))
      case .lessOrEqual where !value.isNull:
        bound(name, position, isExact: true, lower: nil, upper: (value, true))
      case .greater where !value.isNull:
        bound(name, position, isExact: true, lower: (value, false), upper: nil)
      case .greaterOrEqual where !value.isNull:
        bound(name, position, isExact: true, lower: (value, true), upper: nil)
      default: break
      }
    }
    for (position, conjunct) in conjuncts(of: predicate).enumerated() {
      switch conjunct {
      case .comparison(.attribute(.variable(0), let name), let op, .constant(let value)):
        add(name, op, value, position)
      case .comparison(.constant(let value), let op, .attribute(.variable(0), let name)):
        add(name, op.swapped, value, position)
      case .contains(.constant(.array(let values)), .attribute(.variable(0), let name)):
        found.append(
          IndexableCondition(
            attribute: name, kind: .equal(values), covered: ConjunctSet(position),
            sources: (position, nil)))
      case .string(.attribute(.variable(0), let name), .hasPrefix, .constant(.string(let prefix))):
        if let upper = asciiSuccessor(prefix) {
          bound(
            name, position, isExact: false, lower: (.string(prefix), true),
            upper: (.string(upper), false))
        }
      default:
        continue
      }
    }
    return found
      + ranges.map {
        IndexableCondition(
          attribute: $0.attribute, kind: .range($0.range), covered: $0.covered,
          sources: $0.sources)
      }
  }

  /// The smallest string above every string that starts with `prefix`, when `prefix` is
  /// non-empty ASCII without carriage returns (where a character prefix is a byte prefix).
  static func asciiSuccessor(_ prefix: String) -> String? {
    var bytes = Array(prefix.utf8)
    guard let last = bytes.last, last < 0x7F,
      bytes.allSatisfy({ $0 < 0x80 && $0 != 0x0D && $0 != 0x0A })
    else { return nil }
    bytes[bytes.count - 1] = last + 1
    return String(decoding: bytes, as: UTF8.self)
  }
}

/// A set of conjunct positions as bits; conjuncts past the 64th are never covered (they are
/// tested on every row, which is always correct).
struct ConjunctSet: Hashable {
  private var bits: UInt64 = 0

  /// The empty set.
  init() {}

  /// A set of one position.
  init(_ position: Int) { insert(position) }

  /// Adds `position` (ignored past 63).
  mutating func insert(_ position: Int) {
    if position < 64 { bits |= 1 << UInt64(position) }
  }

  /// Whether `position` is in the set.
  func contains(_ position: Int) -> Bool { position < 64 && bits & (1 << UInt64(position)) != 0 }
}
