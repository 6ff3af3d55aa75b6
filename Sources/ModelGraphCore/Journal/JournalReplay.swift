/// Replays a journal's whole records onto the snapshot they follow.
public enum JournalReplay {
  /// `version` with the records of `journal` (read from `bytes`) applied in order.
  ///
  /// Records the version already holds (numbers up to its own, at the start of the journal)
  /// are skipped; every other record must publish the next version number. The tables of
  /// `version` are changed in place: pass a version nothing else holds (one just loaded).
  /// - Throws: ``JournalError`` with code ``JournalError/Code/malformed`` for a record out of
  ///   order or with impossible contents.
  /// - Parameter memoryBudget: The most bytes of table memory the records may add; by default
  ///   16 bytes per byte of journal and at least 1 GiB (as a snapshot's tables may take).
  /// - Complexity: O(size of the records).
  public static func replay(
    _ bytes: UnsafeRawBufferPointer, journal: JournalReader, onto version: StoreVersion,
    path: String, memoryBudget: Int? = nil
  ) throws(JournalError) -> (version: StoreVersion, report: RecoveryReport) {
    let replayed = try replay(
      bytes, journal: journal, onto: version, history: KeptHistory(), path: path,
      memoryBudget: memoryBudget)
    return (replayed.version, replayed.report)
  }

  /// `version` with the records of `journal` applied, and `history` (the snapshot's) with the
  /// changes the replayed records carry.
  static func replay(
    _ bytes: UnsafeRawBufferPointer, journal: JournalReader, onto version: StoreVersion,
    history: KeptHistory, path: String, memoryBudget: Int? = nil
  ) throws(JournalError) -> (version: StoreVersion, report: RecoveryReport, history: KeptHistory) {
    var history = KeptHistoryBuilder(history)
    var applier = JournalApplier(
      catalog: version.catalog, tables: version.tables,
      memoryBudget: memoryBudget ?? SnapshotReader.memoryBudget(fileSize: bytes.count))
    var number = version.number
    var report = RecoveryReport(
      droppedRecords: journal.droppedRecords, droppedBytes: journal.droppedBytes,
      journalBytes: bytes.count)
    for record in journal.records {
      if record.number <= number, report.replayedRecords == 0 {
        report.skippedRecords += 1
        continue
      }
      guard record.number == number &+ 1 else {
        throw JournalError(
          .malformed, path: path, offset: record.offset,
          message: "a record of version \(record.number) follows version \(number)")
      }
      var reader = ByteReader(
        UnsafeRawBufferPointer(rebasing: bytes[record.payload]),
        fileOffset: record.payload.lowerBound, path: path, section: "journal record")
      do {
        let change = try applier.apply(&reader, number: record.number)
        history.append(change?.change, version: record.number, dropped: change?.droppedThrough ?? 0)
      } catch let error as SnapshotError {
        throw JournalError(
          .malformed, path: path, offset: error.offset ?? record.offset,
          message: "record of version \(record.number): \(error.message)")
      } catch {
        throw JournalError(.malformed, path: path, offset: record.offset, message: "\(error)")
      }
      number += 1
      report.replayedRecords += 1
    }
    return (
      StoreVersion(number: number, catalog: applier.catalog, tables: applier.tables), report,
      history.history
    )
  }
}
