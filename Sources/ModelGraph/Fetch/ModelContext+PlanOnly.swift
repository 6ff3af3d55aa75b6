extension ModelContext {
  /// Translates and plans `descriptor` as ``fetch(_:)`` does before it reads a row, and
  /// stops there: what a fetch pays to plan, for `modelgraph-benchmark`'s M3.plan.
  ///
  /// - Returns: Whether the plan was reused from the context's plan cache.
  /// - Throws: As ``fetch(_:)`` does before running the plan.
  @_spi(Benchmarks)
  @inlinable
  public func _plan<T: PersistentModel>(_ descriptor: FetchDescriptor<T>) throws -> Bool {
    try plan(descriptor, probe: FetchProbe(descriptor))
  }

  /// ``_plan(_:)`` of `descriptor`, whose ``FetchProbe`` the caller read.
  @usableFromInline
  func plan<T: PersistentModel>(_ descriptor: FetchDescriptor<T>, probe: FetchProbe) throws
    -> Bool
  {
    try prepareFetch(descriptor, probe: probe).plan.isFromCache
  }
}
