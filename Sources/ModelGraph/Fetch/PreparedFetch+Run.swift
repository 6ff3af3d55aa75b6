import ModelGraphCore
internal import ModelGraphPostgreSQL

extension PreparedFetch {
  /// The keys the plan selects (with the residual test), in its order and window.
  ///
  /// - Throws: ``ModelError`` with code ``ModelError/Code/arithmeticOverflow`` or
  ///   ``ModelError/Code/divisionByZero`` when arithmetic in the predicate faulted on an
  ///   object the plan tested; what the residual throws.
  func keys() throws -> [ObjectKey] {
    try ModelError.reportingArithmeticFaults { try plan.keys(residual: residual) }
  }

  /// The number of objects the plan selects (with the residual test), after its window.
  ///
  /// - Throws: As ``keys()``.
  func count() throws -> Int {
    try ModelError.reportingArithmeticFaults { try plan.count(residual: residual) }
  }
}

extension ModelError {
  /// `body`, whose arithmetic faults, the engine's or PostgreSQL's (a fetch whose predicate
  /// runs as SQL), become ``ModelError``s of the same code: neither the engine's
  /// ``QueryError`` nor the database's error is part of the typed API.
  static func reportingArithmeticFaults<Result>(_ body: () throws -> Result) throws -> Result {
    do {
      return try body()
    } catch let error as QueryError where error.isArithmeticFault {
      throw ModelError(arithmeticFault: error)
    } catch let error as PostgreSQLError {
      guard let fault = error.arithmeticFault else { throw error }
      throw ModelError(arithmeticFault: fault)
    }
  }

  /// The error of an arithmetic fault (``QueryError/isArithmeticFault``).
  init(arithmeticFault error: QueryError) {
    self.init(
      error.code == .divisionByZero ? .divisionByZero : .arithmeticOverflow,
      message: "\(error.message) while evaluating the predicate")
  }
}
