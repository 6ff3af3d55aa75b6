public import ModelGraphCore

extension ModelContext {
  /// The objects `descriptor` selects, sorted, offset and limited as it says.
  ///
  /// The descriptor is compiled into a plan over the classes' tables (see ``explain(_:)``):
  /// tables pruned by type tests, an index or a columnar scan per table, a merge of ordered
  /// indexes or a top-k selection for sorts with a limit. Only the objects returned are
  /// materialized, plus the candidates of a predicate part the engine could not translate.
  /// - Throws: ``ModelError`` when a predicate part evaluated by Foundation throws, when
  ///   arithmetic in the predicate overflows or divides by zero on an object the fetch tests
  ///   (codes ``ModelError/Code/arithmeticOverflow``, ``ModelError/Code/divisionByZero``), or
  ///   (code ``ModelError/Code/schema``) when an object of `T` was inserted whose class cannot
  ///   be registered; ``SchemaError`` when `T` is invalid.
  /// - Complexity: O(n) for n rows of the tables scanned, or O(m) for m rows an index yields;
  ///   plus O(m log k) to keep the best k = offset + limit, O(m log m) to sort without a
  ///   limit, O(k) when an ordered index gives the sort.
  @inlinable
  public func fetch<T: PersistentModel>(_ descriptor: FetchDescriptor<T>) throws -> [T] {
    // The probe is read here, where `T` is known in the caller's specialization.
    try fetch(descriptor, probe: FetchProbe(descriptor))
  }

  /// ``fetch(_:)`` of `descriptor`, whose ``FetchProbe`` the caller read.
  @usableFromInline
  func fetch<T: PersistentModel>(_ descriptor: FetchDescriptor<T>, probe: FetchProbe) throws
    -> [T]
  {
    let prepared = try prepareFetch(descriptor, probe: probe)
    let keys = try prepared.keys()
    var results = materialize(keys[...], as: T.self)
    if prepared.sortsInMemory {
      results.sort(using: descriptor.sortBy)
      results = Array(window(results, prepared))
    }
    if probe.prefetches {
      prefetch(descriptor.relationshipKeyPathsForPrefetching, of: results)
    }
    return results
  }

  /// The number of objects `descriptor` selects, after its offset and limit, without
  /// materializing any (unless a predicate part needs Foundation's `evaluate`).
  ///
  /// - Throws: As ``fetch(_:)``.
  /// - Complexity: O(1) per class visited without a predicate; otherwise as ``fetch(_:)``'s
  ///   filtering, counted column by column for a test of one attribute.
  @inlinable
  public func fetchCount<T: PersistentModel>(_ descriptor: FetchDescriptor<T>) throws -> Int {
    // Whether there is a predicate, and the probe, are read here, where `T` is known in the
    // caller's specialization: generic code would look up the metadata of `Predicate<T>`.
    if descriptor.predicate == nil, let count = try countEveryObject(descriptor) { return count }
    return try fetchCount(descriptor, probe: FetchProbe(descriptor))
  }

  /// ``fetchCount(_:)`` of `descriptor`, which has no predicate, from the tables' live counts
  /// without planning; `nil` when it must be planned (it leaves out pending changes, or the
  /// store keeps only fetched objects).
  @usableFromInline
  func countEveryObject<T: PersistentModel>(_ descriptor: FetchDescriptor<T>) throws -> Int? {
    guard descriptor.includePendingChanges && fetchedOnlyStore == nil else { return nil }
    try checkWindow(descriptor)
    if !refusedInserts.isEmpty { try checkRefusedInserts(of: T.self) }
    refreshIfClean()
    let entity = try entityIndex(for: T.self)
    var count = 0
    if descriptor.includesSubclasses {
      for entity in session.subtree(covering: entity) { count += session.table(entity).liveCount }
    } else {
      count = session.table(entity).liveCount
    }
    count = max(count - max(descriptor.fetchOffset ?? 0, 0), 0)
    return descriptor.fetchLimit.map { min(count, max($0, 0)) } ?? count
  }

  /// ``fetchCount(_:)`` of `descriptor`, whose ``FetchProbe`` the caller read.
  @usableFromInline
  func fetchCount<T: PersistentModel>(_ descriptor: FetchDescriptor<T>, probe: FetchProbe) throws
    -> Int
  {
    let prepared = try prepareFetch(descriptor, probe: probe, counting: true)
    if var count = prepared.databaseCount {
      if let rows = prepared.countedInMemory, !rows.isEmpty {
        count += try prepared.keys().count {
          rows.contains(FetchedPendingRows.key(entity: Int($0.entity), row: Int($0.row)))
        }
      }
      let remaining = max(count - prepared.offset, 0)
      return prepared.limit.map { min(remaining, max($0, 0)) } ?? remaining
    }
    let count = try prepared.count()
    guard prepared.sortsInMemory else { return count }
    let remaining = max(count - prepared.offset, 0)
    return prepared.limit.map { min(remaining, max($0, 0)) } ?? remaining
  }

  /// The identifiers of the objects `descriptor` selects, in its order, without
  /// materializing objects (unless a predicate part or the sort needs Foundation).
  ///
  /// - Complexity: As ``fetch(_:)``, without creating objects.
  @inlinable
  public func fetchIdentifiers<T: PersistentModel>(_ descriptor: FetchDescriptor<T>) throws
    -> [PersistentIdentifier]
  {
    try fetchIdentifiers(descriptor, probe: FetchProbe(descriptor))
  }

  /// ``fetchIdentifiers(_:)`` of `descriptor`, whose ``FetchProbe`` the caller read.
  @usableFromInline
  func fetchIdentifiers<T: PersistentModel>(_ descriptor: FetchDescriptor<T>, probe: FetchProbe)
    throws -> [PersistentIdentifier]
  {
    let prepared = try prepareFetch(descriptor, probe: probe)
    if prepared.sortsInMemory { return try fetch(descriptor).map(\.persistentModelID) }
    return try prepared.keys().map(identifier(for:))
  }

  /// How ``fetch(_:)`` would run `descriptor`: the classes and tables read, the index and
  /// bounds used for each, the test of each row, what is left to `Predicate.evaluate`, and
  /// how results are ordered.
  ///
  /// ```
  /// fetch Trip and subclasses
  /// where $0.startDate >= 2026-01-01T00:00:00Z && $0.startDate < 2026-02-01T00:00:00Z
  ///   Trip (200 objects): ordered(startDate) walk [2026-01-01T00:00:00Z, 2026-02-01T00:00:00Z) ascending (~17 rows)
  ///   …
  /// order: $0.startDate ascending, by merging 3 index walks, stopping after 10
  /// ```
  /// - Throws: ``SchemaError`` when `T` is invalid; ``ModelError`` as ``fetch(_:)`` does when
  ///   an object of `T` was refused at insert.
  /// - Complexity: The planning of ``fetch(_:)``: O(tables of the class hierarchy × indexes
  ///   considered × log n) for the row estimates; no row is fetched.
  public func explain<T: PersistentModel>(_ descriptor: FetchDescriptor<T>) throws -> String {
    let prepared = try prepareFetch(descriptor, loading: false)
    var text = prepared.plan.explanation
    if prepared.sortsInMemory && !descriptor.sortBy.isEmpty {
      let reason =
        SortTranslation.untranslatable(descriptor.sortBy)
        ?? "a sort descriptor has no engine equivalent"
      text += "\nfallback: sorted by Foundation, since \(reason)"
      if prepared.offset > 0 || prepared.limit != nil {
        text +=
          ", then offset \(prepared.offset), limit \(prepared.limit.map(String.init) ?? "none")"
      }
    }
    if let sql = prepared.sql { text += "\n" + sql.description }
    return text
  }

  private func window<T>(_ results: [T], _ prepared: PreparedFetch) -> ArraySlice<T> {
    let start = min(prepared.offset, results.count)
    let end =
      prepared.limit.map { min(results.count, QueryRequest.clippedEnd(offset: start, limit: $0)) }
      ?? results.count
    return results[start..<end]
  }
}
