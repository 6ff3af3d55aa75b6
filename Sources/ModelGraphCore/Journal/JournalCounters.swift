/// What a ``Journal`` did since it was opened: the records its saves appended and the syncs
/// that made them durable.
///
/// Under ``Durability/full`` a lone writer takes one sync per record; saves of several contexts
/// at once share syncs, so `records / syncs` is how many saves a sync covered on average.
public struct JournalCounters: Sendable, Hashable {
  /// The records appended (one per save).
  public var records: Int
  /// The syncs of the journal file run for saves (by a save, by the batched flush, or by
  /// ``Journal/close()``), whether they succeeded or failed.
  public var syncs: Int

  /// Counters holding `records` and `syncs`.
  public init(records: Int = 0, syncs: Int = 0) {
    self.records = records
    self.syncs = syncs
  }
}
