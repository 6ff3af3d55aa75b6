/// What a plan's index merge keeps from one run to the next: its cursor, with the index views
/// it merges, and the arrays a run fills.
///
/// A bound plan refills the same ``QueryPlan`` for each run of its shape (``BoundPlan``), so a
/// repeated fetch restarts the cursor with its new ranges, and refills the arrays in place,
/// instead of making them: it allocates nothing for the merge. Every run starts the cursor
/// again and empties the arrays first, so a run that threw or stopped early leaves nothing
/// that a later run reads. The cursor serves again only over the very index views it was made
/// for (held here, so no other view takes their identity) and in the same direction.
///
/// Not `Sendable`: it belongs to its plan, which belongs to one session. A run that starts
/// while another run of the same plan is under way (a residual test that ran the plan again)
/// uses state of its own (``isRunning``).
final class IndexMergeState {
  /// The cursor kept, when a run made one.
  var cursor: MergeCursor?
  /// The index of each table the cursor merges, by table position.
  var indexes: [any TableIndex] = []
  /// The direction the cursor merges in.
  var ascending = true
  /// Whether a run of the plan is using the state.
  var isRunning = false

  /// Each table's range, table, row test and class, by position (refilled by each run).
  /// (Unchecked: a run uses the state alone, ``isRunning``.)
  @exclusivity(unchecked) var ranges: [IndexValueRange] = []
  @exclusivity(unchecked) var tables: [Table] = []
  @exclusivity(unchecked) var tests: [((Int) -> Bool)?] = []
  @exclusivity(unchecked) var entities: [Int] = []
  /// The rows found, and a batch taken from the cursor (their buffers kept between runs).
  @exclusivity(unchecked) var found: [RowReference] = []
  @exclusivity(unchecked) var batch: [RowReference] = []

  /// Empties the arrays a run fills, keeping their storage.
  func clear() {
    ranges.removeAll(keepingCapacity: true)
    tables.removeAll(keepingCapacity: true)
    tests.removeAll(keepingCapacity: true)
    entities.removeAll(keepingCapacity: true)
    found.removeAll(keepingCapacity: true)
    batch.removeAll(keepingCapacity: true)
  }

  /// The most rows whose buffer ``recycle(_:)`` keeps: a merge without a limit over a wide
  /// range does not leave its whole result's memory with the cached plan.
  static let keptCapacity = 4_096

  /// Takes `found`'s buffer (a run's rows, read) for the next run, when it is no larger than
  /// ``keptCapacity``; leaves `found` empty.
  func recycle(_ found: inout [RowReference]) {
    swap(&found, &self.found)
    found = []
    if self.found.capacity > Self.keptCapacity { self.found = [] }
  }

  /// Keeps `cursor`, made over `indexes` in the direction `ascending`, for the next run.
  func keep(_ cursor: MergeCursor, over indexes: [any TableIndex], ascending: Bool) {
    self.cursor = cursor
    self.indexes = indexes
    self.ascending = ascending
  }

  /// Forgets the cursor (one that could not restart).
  func dropCursor() {
    cursor = nil
    indexes = []
  }
}
