internal import ModelGraphCore

extension SQLQueryCompiler {
  /// The statement selecting the targets of to-many relationship `name` of the object `id`
  /// names (the row read, `t.id`, when `nil`): the join table of `owner`, or, for a related
  /// object, of each class it may be of.
  func targets(of name: String, owner: ResolvedEntity, id: String?) -> String {
    let owners =
      id == nil
      ? [owner]
      : catalog.subtree(of: owner.index).map { catalog.entities[$0] }.filter {
        described.contains($0.name)
      }
    let selects = owners.map {
      "SELECT j.target FROM \(SQLMapping.joinTable($0.name, name)) j WHERE j.owner = \(id ?? "t.id")"
    }
    return selects.isEmpty
      ? "SELECT NULL::bigint WHERE false" : selects.joined(separator: " UNION ALL ")
  }

  /// Whether an object of class `entity` (or a subclass) has the identifier `id`: the
  /// engine reads a to-many relationship's objects deleted since as absent.
  func exists(_ id: String, in entity: ResolvedEntity) -> String {
    let sources = tables(entity)
    guard !sources.isEmpty else { return "false" }
    return "("
      + sources.map { "EXISTS (SELECT 1 FROM \($0) e WHERE e.id = \(id))" }
      .joined(separator: " OR ") + ")"
  }

  /// The number of objects of a to-many relationship that exist (the engine's count of one).
  func count(_ term: Term) throws -> Term {
    guard case .objects(let targets, let entity) = term else {
      throw Untranslatable(reason: "a count of something other than a to-many relationship")
    }
    return .value(
      "(SELECT count(*) FROM (\(targets)) mg_n(id) WHERE \(exists("mg_n.id", in: entity)))", .int)
  }

  /// Whether a to-many relationship's objects hold `element`, an object (never for `nil`).
  func contains(_ collection: Term, _ element: Term) throws -> Term {
    guard case .objects(let targets, let entity) = collection else {
      throw Untranslatable(
        reason: "a test of membership in something other than a to-many relationship")
    }
    if case .value("NULL", nil) = element { return .condition("false") }
    guard let id = try identifier(element) else { return .condition("false") }
    return .condition(
      "EXISTS (SELECT 1 FROM (\(targets)) mg_in(id) WHERE mg_in.id = \(id) AND "
        + "\(exists("mg_in.id", in: entity)))")
  }

  /// `contains(where:)` (or `allSatisfy` when `isUniversal`) over a to-many relationship's
  /// objects that exist, `variable` bound to each.
  func quantified(
    _ collection: Term, _ variable: Int, _ body: QueryExpression, _ variables: [Int: Term],
    isUniversal: Bool
  ) throws -> Term {
    guard case .objects(let targets, let entity) = collection else {
      throw Untranslatable(reason: "a quantifier over something other than a to-many relationship")
    }
    let element = "mg_e\(variable)"
    var bound = variables
    bound[variable] = .related("\(element).id", entity)
    let test = try condition(translate(body, bound))
    let from =
      "SELECT 1 FROM (\(targets)) \(element)(id) WHERE \(exists("\(element).id", in: entity))"
    return .condition(
      isUniversal ? "(NOT EXISTS (\(from) AND NOT \(test)))" : "EXISTS (\(from) AND \(test))")
  }
}
