/// A value a bound plan reads when it runs: one of the request's values (a slot of its
/// condition), or a constant of the condition's shape.
enum BoundValue: Equatable {
  case slot(Int)
  case constant(ModelValue)

  /// The value `operand` stands for; `nil` unless it is a slot or a constant.
  init?(_ operand: QueryExpression) {
    if let index = operand.slotIndex {
      self = .slot(index)
    } else if case .constant(let value) = operand {
      self = .constant(value)
    } else {
      return nil
    }
  }

  /// The value with the request's `values` in the slots; `nil` when the slot's value is not a
  /// constant.
  @inline(__always)
  func value(_ values: [QueryExpression]) -> ModelValue? {
    switch self {
    case .constant(let value): return value
    case .slot(let index):
      guard index < values.count, case .constant(let value) = values[index] else { return nil }
      return value
    }
  }

  /// The operand the conjunct at `position` compares the tested object's attribute with (the
  /// operand ``IndexableCondition/find(in:)`` read its value from).
  static func operand(ofConjunct position: Int?, in conjuncts: [QueryExpression]) -> BoundValue? {
    guard let position, conjuncts.indices.contains(position) else { return nil }
    switch conjuncts[position] {
    case .comparison(.attribute(.variable(0), _), _, let other),
      .comparison(let other, _, .attribute(.variable(0), _)),
      .contains(let other, .attribute(.variable(0), _)):
      return BoundValue(other)
    default:
      return nil
    }
  }
}

/// A range of index keys whose bounds are read when the plan runs.
struct BoundRange {
  var lower: (value: BoundValue, isInclusive: Bool)?
  var upper: (value: BoundValue, isInclusive: Bool)?

  /// Whether `other` has the same bounds: it gives the same range with any values.
  func hasBounds(of other: BoundRange) -> Bool {
    lower?.value == other.lower?.value && lower?.isInclusive == other.lower?.isInclusive
      && upper?.value == other.upper?.value && upper?.isInclusive == other.upper?.isInclusive
  }

  /// The range with the request's `values`; `nil` when a bound is not a constant.
  func range(_ values: [QueryExpression]) -> IndexValueRange? {
    var range = IndexValueRange()
    if let lower {
      guard let value = lower.value.value(values), !value.isNull else { return nil }
      range.lower = (value, lower.isInclusive)
    }
    if let upper {
      guard let value = upper.value.value(values), !value.isNull else { return nil }
      range.upper = (value, upper.isInclusive)
    }
    return range
  }
}

/// What a bound plan asks an index, with the values read when it runs.
enum BoundCondition {
  /// `attribute == value`.
  case equal(BoundValue)
  /// `[values].contains(attribute)`: the value is a list.
  case list(BoundValue)
  /// `attribute` within a range.
  case range(BoundRange)

  /// The bound form of `condition`, found in a condition whose top-level conjuncts (with
  /// slots for the request's values) are `conjuncts`; `nil` when a value is computed from a
  /// constant (a prefix's range) or is not a slot or a constant.
  init?(_ condition: IndexableCondition, conjuncts: [QueryExpression]) {
    switch condition.kind {
    case .equal:
      guard let source = condition.sources.lower,
        let value = BoundValue.operand(ofConjunct: source, in: conjuncts)
      else { return nil }
      if case .contains = conjuncts[source] { self = .list(value) } else { self = .equal(value) }
    case .range(let range):
      guard let bound = BoundRange(range, condition.sources, conjuncts) else { return nil }
      self = .range(bound)
    }
  }

  /// The rows `index` yields with the request's `values`, and their number; `nil` when a
  /// value does not convert to the index's keys.
  func estimate(_ index: any TableIndex, _ values: [QueryExpression]) -> Int? {
    switch self {
    case .equal(let value):
      guard let value = value.value(values) else { return nil }
      return index.count(equalTo: [value])
    case .list(let list):
      guard case .array(let elements) = list.value(values) else { return nil }
      return index.count(equalTo: elements)
    case .range(let bound):
      return bound.range(values).flatMap { index.count(in: $0) }
    }
  }

  /// The rows `index` yields with the request's `values` for an equality or a list, ascending;
  /// `nil` when a value does not convert to the index's keys (as ``estimate(_:_:)``), or for a
  /// range.
  func equalRows(_ index: any TableIndex, _ values: [QueryExpression]) -> [Int32]? {
    switch self {
    case .equal(let value):
      guard let value = value.value(values) else { return nil }
      return index.rows(equalTo: [value])
    case .list(let list):
      guard case .array(let elements) = list.value(values) else { return nil }
      return index.rows(equalTo: elements)
    case .range: return nil
    }
  }

  /// The rows `index` yields with the request's `values`, ascending.
  func rows(_ index: any TableIndex, _ values: [QueryExpression]) -> [Int32] {
    switch self {
    case .equal(let value):
      return value.value(values).flatMap { index.rows(equalTo: [$0]) } ?? []
    case .list(let list):
      guard case .array(let elements) = list.value(values) else { return [] }
      return index.rows(equalTo: elements) ?? []
    case .range(let bound):
      return bound.range(values).flatMap { index.rows(in: $0) } ?? []
    }
  }
}

extension BoundRange {
  /// The bound form of `range`, whose bounds come from the conjuncts at `sources`.
  init?(
    _ range: IndexValueRange, _ sources: (lower: Int?, upper: Int?),
    _ conjuncts: [QueryExpression]
  ) {
    if let lower = range.lower {
      guard let value = BoundValue.operand(ofConjunct: sources.lower, in: conjuncts) else {
        return nil
      }
      self.lower = (value, lower.isInclusive)
    }
    if let upper = range.upper {
      guard let value = BoundValue.operand(ofConjunct: sources.upper, in: conjuncts) else {
        return nil
      }
      self.upper = (value, upper.isInclusive)
    }
  }
}
