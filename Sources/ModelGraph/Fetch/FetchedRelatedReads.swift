internal import ModelGraphCore

/// Which relationships of the tested object a condition or sort key reads, when it reads
/// related objects one level deep only: their identity, their number, their attributes and
/// their type, but none of their own relationships.
///
/// A fetch with unsaved changes over a store keeping only fetched objects needs it: such an
/// expression can answer differently in the database and in the context's view only for
/// objects the context changed, and for the owners of related objects it changed (which the
/// inverse relationships name, see ``FetchedPendingRows``).
enum FetchedRelatedReads {
  /// What an expression may evaluate to, as far as whose values it reads.
  private struct Origin: Equatable {
    /// The tested object itself (or it cast).
    var root = false
    /// An object (or objects) one relationship away from the tested object.
    var related = false
    /// An object named in the query, or otherwise not reached from the tested object.
    var other = false

    /// A plain value, or no object.
    static let value = Origin()

    /// Either of two.
    func union(_ other: Origin) -> Origin {
      Origin(
        root: root || other.root, related: related || other.related,
        other: self.other || other.other)
    }
  }

  /// The relationships of the tested object `expression` reads, by name; `nil` when it reads
  /// deeper than one relationship, a value of an object named in the query, or a part the
  /// engine cannot evaluate.
  static func relationships(of expression: QueryExpression) -> Set<String>? {
    var names: Set<String> = []
    guard origin(of: expression, bound: [0: Origin(root: true)], names: &names) != nil else {
      return nil
    }
    return names
  }

  /// What `expression` evaluates to, with the variables `bound`; adds the relationships of the
  /// tested object it reads to `names`. `nil` when it reads what ``relationships(of:)``
  /// refuses.
  private static func origin(
    of expression: QueryExpression, bound: [Int: Origin], names: inout Set<String>
  ) -> Origin? {
    func check(_ parts: QueryExpression...) -> Origin? {
      for part in parts where origin(of: part, bound: bound, names: &names) == nil { return nil }
      return .value
    }
    func joined(_ parts: QueryExpression...) -> Origin? {
      var result = Origin.value
      for part in parts {
        guard let found = origin(of: part, bound: bound, names: &names) else { return nil }
        result = result.union(found)
      }
      return result
    }
    func binding(_ variable: Int, to source: QueryExpression, in body: QueryExpression)
      -> Origin?
    {
      guard let element = origin(of: source, bound: bound, names: &names) else { return nil }
      var inner = bound
      inner[variable] = element
      return origin(of: body, bound: inner, names: &names)
    }
    switch expression {
    case .constant: return .value
    case .object: return Origin(other: true)
    case .variable(let index): return bound[index]
    case .opaque: return nil
    case .attribute(let base, _):
      guard let found = origin(of: base, bound: bound, names: &names), !found.other else {
        return nil
      }
      return .value
    case .relationship(let base, let name):
      guard let found = origin(of: base, bound: bound, names: &names), found.root,
        !found.related, !found.other
      else { return nil }
      names.insert(name)
      return Origin(related: true)
    case .cast(let base, _): return joined(base)
    case .typeTest(let base, _, _): return check(base)
    case .and(let parts), .or(let parts):
      for part in parts where origin(of: part, bound: bound, names: &names) == nil { return nil }
      return .value
    case .not(let part), .negative(let part), .count(let part): return check(part)
    case .comparison(let left, _, let right), .arithmetic(let left, _, let right),
      .string(let left, _, let right), .caseInsensitiveCompare(let left, let right),
      .contains(let left, let right):
      return check(left, right)
    case .coalesce(let left, let right): return joined(left, right)
    case .conditional(let test, let then, let otherwise):
      guard check(test) != nil else { return nil }
      return joined(then, otherwise)
    case .flatMap(let source, let variable, let body):
      return binding(variable, to: source, in: body)
    case .any(let source, let variable, let body), .all(let source, let variable, let body):
      return binding(variable, to: source, in: body) == nil ? nil : .value
    }
  }
}
