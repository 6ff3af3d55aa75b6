internal import ModelGraphCore

/// Which paths of relationships from the tested object a condition or sort key reads: the
/// identity, number, attributes and type of the objects at the end of each path, and of those
/// on the way (a path `["team", "company"]` reads `$0.team?.company`).
///
/// A fetch with unsaved changes over a store keeping only fetched objects needs it: such an
/// expression can answer differently in the database and in the context's view only for
/// objects the context changed, and for the objects that reach, along one of the paths, an
/// object it changed (which the inverse relationships name, see ``FetchedOwnerWalk``).
enum FetchedRelatedReads {
  /// What an expression may evaluate to, as far as whose values it reads.
  private struct Origin: Equatable {
    /// The tested object itself (or it cast).
    var root = false
    /// The paths of relationships from the tested object to objects it may be.
    var paths: Set<[String]> = []
    /// An object named in the query, or otherwise not reached from the tested object.
    var other = false

    /// A plain value, or no object.
    static let value = Origin()

    /// Either of two.
    func union(_ other: Origin) -> Origin {
      Origin(
        root: root || other.root, paths: paths.union(other.paths),
        other: self.other || other.other)
    }
  }

  /// The paths of relationships from the tested object that `expression` reads (a path of one
  /// for a relationship of the tested object itself); `nil` when it reads a value of an object
  /// named in the query, or a part the engine cannot evaluate.
  static func paths(of expression: QueryExpression) -> Set<[String]>? {
    var paths: Set<[String]> = []
    guard origin(of: expression, bound: [0: Origin(root: true)], paths: &paths) != nil else {
      return nil
    }
    return paths
  }

  /// What `expression` evaluates to, with the variables `bound`; adds the paths of
  /// relationships it reads to `paths`. `nil` when it reads what ``paths(of:)`` refuses.
  private static func origin(
    of expression: QueryExpression, bound: [Int: Origin], paths: inout Set<[String]>
  ) -> Origin? {
    func check(_ parts: QueryExpression...) -> Origin? {
      for part in parts where origin(of: part, bound: bound, paths: &paths) == nil { return nil }
      return .value
    }
    func joined(_ parts: QueryExpression...) -> Origin? {
      var result = Origin.value
      for part in parts {
        guard let found = origin(of: part, bound: bound, paths: &paths) else { return nil }
        result = result.union(found)
      }
      return result
    }
    func binding(_ variable: Int, to source: QueryExpression, in body: QueryExpression)
      -> Origin?
    {
      guard let element = origin(of: source, bound: bound, paths: &paths) else { return nil }
      var inner = bound
      inner[variable] = element
      return origin(of: body, bound: inner, paths: &paths)
    }
    switch expression {
    case .constant: return .value
    case .object: return Origin(other: true)
    case .variable(let index): return bound[index]
    case .opaque: return nil
    case .attribute(let base, _):
      guard let found = origin(of: base, bound: bound, paths: &paths), !found.other else {
        return nil
      }
      return .value
    case .relationship(let base, let name):
      guard let found = origin(of: base, bound: bound, paths: &paths), !found.other,
        found.root || !found.paths.isEmpty
      else { return nil }
      var reached = Set(found.paths.map { $0 + [name] })
      if found.root { reached.insert([name]) }
      paths.formUnion(reached)
      return Origin(paths: reached)
    case .cast(let base, _): return joined(base)
    case .typeTest(let base, _, _): return check(base)
    case .and(let parts), .or(let parts):
      for part in parts where origin(of: part, bound: bound, paths: &paths) == nil { return nil }
      return .value
    case .not(let part), .negative(let part), .count(let part), .narrow(let part, _):
      return check(part)
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
