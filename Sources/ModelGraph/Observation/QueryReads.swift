import ModelGraphCore

/// What a fetch reads: the tables of its class (and subclasses) and the attributes its
/// predicate and sort name; a save that touches none of them cannot change its results.
struct QueryReads: Sendable {
  /// The entities whose rows the fetch reads.
  var entities: Set<Int>
  /// Entities registered after the fetch was analysed count as read (they may be subclasses).
  var entityCount: Int
  /// The attributes the predicate and sort name on those entities.
  var attributes: Set<String> = []
  /// Whether the fetch reads more than can be told (relationships, untranslated parts): any
  /// save changes its results.
  var readsEverything = false

  /// Whether `change` may change the fetch's results.
  func isAffected(by change: CommittedChange) -> Bool {
    if readsEverything { return !change.entities.isEmpty }
    return change.entities.contains { touch in
      guard entities.contains(touch.entity) || touch.entity >= entityCount else { return false }
      return touch.insertedOrDeleted || !touch.attributes.isDisjoint(with: attributes)
    }
  }

  /// Adds the attributes `expression` names; anything that leaves the object (a relationship)
  /// or cannot be analysed makes the fetch read everything.
  mutating func collect(_ expression: QueryExpression) {
    switch expression {
    case .constant, .object, .variable: break
    case .attribute(let base, let name):
      attributes.insert(name)
      collect(base)
    case .relationship, .opaque, .flatMap, .any, .all:
      readsEverything = true
    case .cast(let inner, _), .typeTest(let inner, _, _), .not(let inner), .negative(let inner),
      .count(let inner), .narrow(let inner, _):
      collect(inner)
    case .and(let parts), .or(let parts):
      for part in parts { collect(part) }
    case .comparison(let left, _, let right), .arithmetic(let left, _, let right),
      .string(let left, _, let right), .caseInsensitiveCompare(let left, let right),
      .coalesce(let left, let right), .contains(let left, let right):
      collect(left)
      collect(right)
    case .conditional(let test, let then, let otherwise):
      collect(test)
      collect(then)
      collect(otherwise)
    @unknown default:
      readsEverything = true
    }
  }
}

extension ModelContext {
  /// What `descriptor` reads, for deciding which saves can change its results.
  func queryReads<T: PersistentModel>(_ descriptor: FetchDescriptor<T>) throws -> QueryReads {
    let entity = try entityIndex(for: T.self)
    var named: [Int] = []
    var expression: QueryExpression?
    var untranslated: [String] = []
    if let predicate = descriptor.predicate {
      let translator = PredicateTranslator(context: self) { [unowned self] type in
        named.append(try entityIndex(for: type))
      }
      (expression, untranslated) = translator.translate(predicate)
    }
    let catalog = session.catalog(covering: named.reduce(entity, max))
    let subtree = descriptor.includesSubclasses ? catalog.subtree(of: entity) : [entity]
    var reads = QueryReads(
      entities: Set(subtree),
      entityCount: descriptor.includesSubclasses ? catalog.entities.count : Int.max)
    reads.readsEverything = !untranslated.isEmpty || !named.isEmpty
    if let expression { reads.collect(expression) }
    if let keys = SortTranslation.keys(descriptor.sortBy) {
      for key in keys { reads.collect(key.expression) }
    } else {
      reads.readsEverything = true
    }
    return reads
  }
}
