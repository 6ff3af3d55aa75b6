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
  ///
  /// The records' tables are applied first; then only the changes the history still keeps
  /// after the last record are decoded (a record's `droppedThrough` and a record without a
  /// change drop every change up to them), so a long journal does not decode, and free again,
  /// the change of every save.
  static func replay(
    _ bytes: UnsafeRawBufferPointer, journal: JournalReader, onto version: StoreVersion,
    history: KeptHistory, path: String, memoryBudget: Int? = nil
  ) throws(JournalError) -> (version: StoreVersion, report: RecoveryReport, history: KeptHistory) {
    var applier = JournalApplier(
      catalog: version.catalog, tables: version.tables,
      memoryBudget: memoryBudget ?? SnapshotReader.memoryBudget(fileSize: bytes.count))
    var number = version.number
    var report = RecoveryReport(
      droppedRecords: journal.droppedRecords, droppedBytes: journal.droppedBytes,
      journalBytes: bytes.count)
    var kept = KeptChanges()
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
      let part = try mapErrors(record, path: path) {
        try applier.apply(&reader, number: record.number)
      }
      kept.append(record, part)
      number += 1
      report.replayedRecords += 1
    }
    var builder = KeptHistoryBuilder(history)
    if let pruned = kept.lastPruned { builder.append(nil, version: pruned, dropped: 0) }
    for entry in kept.entries {
      guard let part = entry.part, entry.record.number > kept.droppedBound else {
        // Dropped by a later record: the same as a record without a change.
        builder.append(nil, version: entry.record.number, dropped: 0)
        continue
      }
      let start = entry.record.payload.lowerBound + part.offset
      var reader = ByteReader(
        UnsafeRawBufferPointer(rebasing: bytes[start..<entry.record.payload.upperBound]),
        fileOffset: start, path: path, section: "journal record")
      let change = try mapErrors(entry.record, path: path) {
        let change = try CommittedChange.decode(from: &reader, version: entry.record.number)
        try reader.expectEnd()
        return change
      }
      builder.append(change, version: entry.record.number, dropped: part.droppedThrough)
    }
    return (
      StoreVersion(number: number, catalog: applier.catalog, tables: applier.tables), report,
      builder.history
    )
  }

  /// `body`'s result, its errors reported as ``JournalError``s of `record`.
  private static func mapErrors<T>(
    _ record: JournalReader.Record, path: String, _ body: () throws -> T
  ) throws(JournalError) -> T {
    do {
      return try body()
    } catch let error as SnapshotError {
      throw JournalError(
        .malformed, path: path, offset: error.offset ?? record.offset,
        message: "record of version \(record.number): \(error.message)")
    } catch {
      throw JournalError(.malformed, path: path, offset: record.offset, message: "\(error)")
    }
  }
}

/// The replayed records whose change the history may still keep, while the records are
/// applied: those past every version a record so far dropped.
private struct KeptChanges {
  struct Entry {
    var record: JournalReader.Record
    var part: JournalApplier.HistoryPart?
  }

  private var all: [Entry] = []
  private var first = 0
  /// Every change of a version up to this one is dropped from the history.
  private(set) var droppedBound: UInt64 = 0
  /// The newest record left out because its change is dropped, if any.
  private(set) var lastPruned: UInt64?

  /// The entries still kept, oldest first.
  var entries: ArraySlice<Entry> { all[first...] }

  /// Adds a replayed record: `part` is its change's place, `nil` when it has none (which
  /// drops every change through its version).
  mutating func append(_ record: JournalReader.Record, _ part: JournalApplier.HistoryPart?) {
    all.append(Entry(record: record, part: part))
    droppedBound = max(droppedBound, part?.droppedThrough ?? record.number)
    while first < all.count, all[first].record.number <= droppedBound {
      lastPruned = all[first].record.number
      first += 1
    }
    if first >= 1024, first * 2 >= all.count {
      all.removeFirst(first)
      first = 0
    }
  }
}
