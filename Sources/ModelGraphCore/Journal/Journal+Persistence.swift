/// The snapshot-and-journal files as a store's persistence: a save appends its record inside
/// the publishing step and waits for the sync outside it.
extension Journal: StorePersistence {
  /// Appends the save's record.
  ///
  /// - Throws: ``JournalError``; nothing is published.
  public func commit(_ commit: StoreCommit) throws -> StoreCommitOutcome {
    let ticket = try append(
      number: commit.number, catalog: commit.catalog,
      tables: commit.tables.map {
        JournalRecord.TableRows(entity: $0.entity, table: $0.table, rows: $0.rows)
      }, change: commit.change, historyDroppedThrough: commit.historyDroppedThrough)
    return .committed(ticket: ticket)
  }

}
