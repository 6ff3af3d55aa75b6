extension QueryPlan {
  /// Runs `body` (a run of the plan) and throws the first arithmetic fault its row tests or
  /// sort comparators recorded: a fault is never a `nil` that a comparison quietly takes.
  ///
  /// The slots are cleared before the run and given back their values after it, so a run of
  /// the plan inside another (a residual that queries) neither sees nor hides the outer run's
  /// fault. A plan without arithmetic that can fault runs `body` as it is.
  /// - Throws: ``QueryError`` with code ``QueryError/Code/arithmeticOverflow`` or
  ///   ``QueryError/Code/divisionByZero``, naming the operator; or what `body` throws.
  func guardingFaults<Result>(_ body: () throws -> Result) throws -> Result {
    var slots: [ArithmeticFaultSlot] = []
    for position in tables.indices {
      if let slot = tables[position].condition?.faults, !slots.contains(where: { $0 === slot }) {
        slots.append(slot)
      }
    }
    if let sortFaults { slots.append(sortFaults) }
    guard !slots.isEmpty else { return try body() }
    let outer = slots.map(\.fault)
    for slot in slots { slot.fault = nil }
    defer { for (slot, fault) in zip(slots, outer) { slot.fault = fault } }
    let result = try body()
    if let fault = slots.lazy.compactMap(\.fault).first { throw fault.error }
    return result
  }
}
