/// What opening a file-backed store found in its journal.
public struct RecoveryReport: Sendable, Hashable {
  /// The records replayed onto the snapshot.
  public var replayedRecords: Int
  /// Whole records skipped because the snapshot already holds them (a checkpoint was cut short
  /// before it restarted the journal).
  public var skippedRecords: Int
  /// Records cut from the end of the journal: a torn or damaged tail (0 when none).
  public var droppedRecords: Int
  /// Bytes cut from the end of the journal.
  public var droppedBytes: Int
  /// The journal's size before anything was cut.
  public var journalBytes: Int

  /// A report; zeros when omitted.
  public init(
    replayedRecords: Int = 0, skippedRecords: Int = 0, droppedRecords: Int = 0,
    droppedBytes: Int = 0, journalBytes: Int = 0
  ) {
    self.replayedRecords = replayedRecords
    self.skippedRecords = skippedRecords
    self.droppedRecords = droppedRecords
    self.droppedBytes = droppedBytes
    self.journalBytes = journalBytes
  }
}
