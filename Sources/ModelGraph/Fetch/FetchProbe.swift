/// What the fetch memo compares of a descriptor's predicate and sort, read where the
/// descriptor's model class is known: in the caller's specialization of a fetch, these reads
/// cost a few loads, where the engine's generic code looks up the metadata of
/// `Predicate<T>`, `Optional<Predicate<T>>` and `SortDescriptor<T>` on every fetch.
///
/// Only the first sort descriptor is read here (no list to allocate); the memo checks any
/// other against the descriptor itself.
@usableFromInline
struct FetchProbe {
  /// The predicate's tree; `nil` without a predicate.
  @usableFromInline let tree: (any StandardPredicateExpression<Bool>)?
  /// The identifier of the tree's type; `nil` without a predicate.
  @usableFromInline let treeType: ObjectIdentifier?
  /// The predicate's input variable; `nil` without a predicate.
  @usableFromInline let input: PredicateExpressions.VariableID?
  /// The number of sort descriptors.
  @usableFromInline let sortCount: Int
  /// The first sort descriptor's key path; `nil` without one or when it has none.
  @usableFromInline let firstKeyPath: AnyKeyPath?
  /// Whether the first sort descriptor sorts forward.
  @usableFromInline let firstIsForward: Bool
  /// Whether the first sort descriptor has a string comparator (read only for a key path of a
  /// string, the only ones that can have one).
  @usableFromInline let firstHasComparator: Bool
  /// Whether the descriptor names relationships to prefetch (read here: the engine's generic
  /// code would look up the metadata of the key paths' array to ask).
  @usableFromInline let prefetches: Bool

  /// The probe of `descriptor`.
  @inlinable
  init<T>(_ descriptor: borrowing FetchDescriptor<T>) {
    // Each copy of the predicate or a sort descriptor goes through Foundation's value
    // witnesses: read once each.
    if let predicate = descriptor.predicate {
      let expression = predicate.expression
      treeType = ObjectIdentifier(type(of: expression))
      tree = expression
      input = predicate.variable.key
    } else {
      tree = nil
      treeType = nil
      input = nil
    }
    prefetches = !descriptor.relationshipKeyPathsForPrefetching.isEmpty
    let sort = descriptor.sortBy
    sortCount = sort.count
    guard sortCount > 0 else {
      firstKeyPath = nil
      firstIsForward = true
      firstHasComparator = false
      return
    }
    let first = sort[0]
    let keyPath = first.keyPath
    firstKeyPath = keyPath
    firstIsForward = first.order == .forward
    if let keyPath {
      let value = type(of: keyPath).valueType
      firstHasComparator =
        (value == String.self || value == String?.self) && first.stringComparator != nil
    } else {
      firstHasComparator = false
    }
  }
}
