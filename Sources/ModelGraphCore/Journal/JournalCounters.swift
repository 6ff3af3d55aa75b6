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
  /// How long those syncs took together, in nanoseconds (`syncNanoseconds / syncs` is a
  /// sync's mean latency).
  public var syncNanoseconds: UInt64

  /// Counters holding `records`, `syncs` and `syncNanoseconds`.
  public init(records: Int = 0, syncs: Int = 0, syncNanoseconds: UInt64 = 0) {
    self.records = records
    self.syncs = syncs
    self.syncNanoseconds = syncNanoseconds
  }
}
