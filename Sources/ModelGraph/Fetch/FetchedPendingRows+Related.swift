internal import ModelGraphCore

extension FetchedPendingRows {
  /// The request's conjuncts and sort keys whose answer can differ between the database and
  /// the context's view only for the pending rows and the owners of related objects the
  /// context changed: those that read only each object's own values, and those that read
  /// related objects along paths of relationships (``FetchedRelatedReads``) on which `walk`
  /// names every owner, or a condition selecting in the database those it cannot
  /// (``FetchedOwnerWalk``).
  /// - Returns: The covered conjuncts as one predicate (`nil` for none), whether every
  ///   conjunct and sort key is covered, the owners along the paths the covered ones read, and
  ///   the conditions selecting in the database the owners memory cannot name.
  func coveredReads(
    of request: QueryRequest, catalog: SchemaCatalog, walk: inout FetchedOwnerWalk
  ) -> (
    predicate: QueryExpression?, whole: Bool, owners: [ObjectKey], holders: [QueryExpression]
  ) {
    let toOne = ownReferences(of: request, catalog: catalog)
    var owners: [ObjectKey] = []
    var holders: [QueryExpression] = []
    func covered(_ expression: QueryExpression) -> Bool {
      if Self.readsOnlyOwnValues(expression, toOne: toOne) { return true }
      guard let paths = FetchedRelatedReads.paths(of: expression) else { return false }
      var found = FetchedOwnerWalk.Found()
      for path in paths.sorted(by: { $0.lexicographicallyPrecedes($1) }) {
        guard let along = walk.owners(along: path) else { return false }
        found.owners += along.owners
        found.holders += along.holders
      }
      owners += found.owners
      for holder in found.holders where !holders.contains(holder) { holders.append(holder) }
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
    return (predicate, kept.count == parts.count && sorted, owners, holders)
  }
}
