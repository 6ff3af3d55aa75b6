/// When a save's journal record reaches the disk.
public enum Durability: Sendable, Hashable {
  /// Every save returns once its record is on the disk (fdatasync); saves of several contexts
  /// at once share one sync. A saved change survives a crash and a power loss.
  case full
  /// Saves return at once and the journal is synced at most `every` later: a crash of the
  /// process loses nothing, a power loss can lose the saves of the last window.
  case batched(every: Duration)
  /// The journal is never synced by a save (only by checkpoints and when the container closes):
  /// a crash of the process loses nothing, a power loss can lose any save since the last
  /// checkpoint.
  case none
}
