internal import ModelGraphCore

extension FetchedPendingRows {
  /// The request's conjuncts and sort keys whose answer can differ between the database and
  /// the context's view only for the pending rows and the owners of related objects the
  /// context changed: those that read only each object's own values, and those that read
  /// related objects along paths of relationships (``FetchedRelatedReads``) on which `walk`
  /// names every owner (``FetchedOwnerWalk``).
  /// - Returns: The covered conjuncts as one predicate (`nil` for none), whether every
  ///   conjunct and sort key is covered, and the owners along the paths the covered ones read.
  func coveredReads(
    of request: QueryRequest, catalog: SchemaCatalog, walk: inout FetchedOwnerWalk
  ) -> (predicate: QueryExpression?, whole: Bool, owners: [ObjectKey]) {
    let toOne = ownReferences(of: request, catalog: catalog)
    var owners: [ObjectKey] = []
    func covered(_ expression: QueryExpression) -> Bool {
      if Self.readsOnlyOwnValues(expression, toOne: toOne) { return true }
      guard let paths = FetchedRelatedReads.paths(of: expression) else { return false }
      var found: [ObjectKey] = []
      for path in paths.sorted(by: { $0.lexicographicallyPrecedes($1) }) {
        guard let along = walk.owners(along: path) else { return false }
        found += along
      }
      owners += found
      return true
    }
    var parts: [QueryExpression] = []
    if case .and(let all) = request.predicate {
      parts = all
    } else if let predicate = request.predicate {
      parts = [predicate]
    }
    let kept = parts.filter(covered)
    let sorted = request.sort.allSatisfy { covered($0.expression) }
    let predicate = kept.isEmpty ? nil : kept.count == 1 ? kept[0] : .and(kept)
    return (predicate, kept.count == parts.count && sorted, owners)
  }
}
