extension ModelContext {
  /// The saved transactions the history keeps that `descriptor` accepts, oldest first.
  ///
  /// The history is kept per store: every save of every context and of the runner, up to the
  /// store's history retention (`ChangeHistory.retention` in ModelGraphCore; 1,000 saves and
  /// 100,000 object changes by default).
  /// On a file-backed container it survives restarts, checkpoints and crashes: each save's
  /// journal record carries its change, and a snapshot carries the kept history. A file
  /// written before history was kept opens with an empty history (older tokens expired).
  /// ```swift
  /// let after = lastToken
  /// let transactions = try context.fetchHistory(
  ///   HistoryDescriptor<DefaultHistoryTransaction>(predicate: #Predicate { $0.token > after }))
  /// ```
  /// - Throws: The error the predicate throws; ``ModelError`` `.unsupportedPredicate` for a
  ///   predicate that computes integer or `Decimal` arithmetic, which `Predicate.evaluate`
  ///   (which runs it) would stop the process on where it overflows or divides by zero.
  /// - Complexity: O(kept transactions).
  public func fetchHistory(
    _ descriptor: HistoryDescriptor<DefaultHistoryTransaction>
  ) throws -> [DefaultHistoryTransaction] {
    if let predicate = descriptor.predicate,
      let arithmetic = TrappingArithmetic.first(in: predicate.expression)
    {
      throw ModelError(
        refusing: ["the history predicate computes \(arithmetic)"],
        remedy: "compute it outside the predicate and capture the result")
    }
    var result: [DefaultHistoryTransaction] = []
    for change in container.store.history.changes(after: 0) {
      if let limit = descriptor.fetchLimit, result.count >= limit { break }
      let transaction = DefaultHistoryTransaction(change)
      if let predicate = descriptor.predicate, try !predicate.evaluate(transaction) { continue }
      result.append(transaction)
    }
    return result
  }

  /// Whether transactions after `token` may be missing from the history: the retention or
  /// ``deleteHistory(before:)`` dropped some (SwiftData throws `historyTokenExpired` then).
  public func isHistoryExpired(after token: DefaultHistoryToken) -> Bool {
    container.store.history.droppedThrough > token.version
  }

  /// Drops the transactions older than `token` from the history; on a file-backed container
  /// the next save or checkpoint makes the deletion durable.
  public func deleteHistory(before token: DefaultHistoryToken) {
    guard token.version > 0 else { return }
    container.store.history.deleteHistory(through: token.version - 1)
  }
}
