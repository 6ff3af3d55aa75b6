internal import ModelGraphCore

extension FetchedPendingRows {
  /// The request's conjuncts and sort keys whose answer can differ between the database and
  /// the context's view only for the pending rows and the owners of related objects the
  /// context changed: those that read only each object's own values, and those that read
  /// related objects one level deep (``FetchedRelatedReads``) through relationships with an
  /// inverse, which names the owners.
  /// - Returns: The covered conjuncts as one predicate (`nil` for none), whether every
  ///   conjunct and sort key is covered, and the relationships read one level deep.
  func coveredReads(of request: QueryRequest, catalog: SchemaCatalog) -> (
    predicate: QueryExpression?, whole: Bool, relationships: Set<String>
  ) {
    let toOne = ownReferences(of: request, catalog: catalog)
    let entities =
      request.includesSubclasses ? catalog.subtree(of: request.entity) : [request.entity]
    var relationships: Set<String> = []
    func covered(_ expression: QueryExpression) -> Bool {
      if Self.readsOnlyOwnValues(expression, toOne: toOne) { return true }
      guard let names = FetchedRelatedReads.relationships(of: expression),
        names.allSatisfy({ Self.inverses(of: $0, in: entities, catalog: catalog) != nil })
      else { return false }
      relationships.formUnion(names)
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
    return (predicate, kept.count == parts.count && sorted, relationships)
  }

  /// For relationship `name` of the classes `entities`: each class its objects may be of
  /// (the destination and its subclasses) with the name of the inverse there; `nil` when one
  /// of them has no inverse.
  static func inverses(of name: String, in entities: [Int], catalog: SchemaCatalog)
    -> [(destination: Int, inverse: String)]?
  {
    var found: [(destination: Int, inverse: String)] = []
    for entity in entities {
      guard let slot = catalog.entities[entity].relationshipSlot(named: name) else { continue }
      guard
        let destination = catalog.entity(
          named: catalog.entities[entity].relationships[slot].destination)
      else { return nil }
      for target in catalog.subtree(of: destination.index) {
        guard let inverse = catalog.inverseSlot(of: slot, in: entity, target: target) else {
          return nil
        }
        found.append((target, catalog.entities[target].relationships[inverse].name))
      }
    }
    return found
  }

  /// The owners, among `entities`, of the objects the context inserted, changed or deleted
  /// in the destinations of `relationships`: those the inverse names before the changes (in
  /// the base version) and after them. Both are in memory: a resident object's relationships
  /// hold resident objects only.
  static func owners(
    through relationships: Set<String>, of entities: Set<Int>, session: Session,
    catalog: SchemaCatalog
  ) -> [ObjectKey] {
    guard !relationships.isEmpty else { return [] }
    let roots = entities.sorted()
    var inverses: [Int: Set<String>] = [:]
    for name in relationships {
      for (destination, inverse) in Self.inverses(of: name, in: roots, catalog: catalog) ?? [] {
        inverses[destination, default: []].insert(inverse)
      }
    }
    var owners: [ObjectKey] = []
    for change in session.changeSet {
      guard let names = inverses[change.entity] else { continue }
      let entity = catalog.entities[change.entity]
      let working = session.table(change.entity)
      let committed = session.committedTable(change.entity)
      let changed =
        change.insertedRows + change.updatedRows.map(\.row) + change.relationshipRows
        + change.deletedKeys.map { Int($0.row) }
      for row in changed {
        for name in names {
          guard let slot = entity.relationshipSlot(named: name) else { continue }
          if working.isAlive(row) { owners += working.relatedKeys(row: row, slot: slot) }
          if committed.isAlive(row) { owners += committed.relatedKeys(row: row, slot: slot) }
        }
      }
    }
    return owners.filter { entities.contains(Int($0.entity)) }
  }
}
