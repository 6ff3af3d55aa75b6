extension ModelContext {
  /// Translates and plans `descriptor` as ``fetch(_:)`` does before it reads a row, and
  /// stops there: what a fetch pays to plan, for `modelgraph-benchmark`'s M3.plan.
  ///
  /// - Returns: Whether the plan was reused from the context's plan cache.
  /// - Throws: As ``fetch(_:)`` does before running the plan.
  @_spi(Benchmarks)
  public func _plan<T: PersistentModel>(_ descriptor: FetchDescriptor<T>) throws -> Bool {
    try prepareFetch(descriptor).plan.isFromCache
  }
}
