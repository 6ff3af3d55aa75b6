public import ModelGraphCore

/// How a context's ``ModelContext/save()`` settles changes that collide with saves other
/// contexts published after this context read the objects.
///
/// Changes that commute always merge: different attributes of one object, different objects
/// added to or removed from one to-many relationship. What collides is a ``ModelConflict``.
/// No policy undoes a deletion, unless the policy rejects the save: a change to an object
/// deleted elsewhere is dropped; a new object that refers to it follows the relationship's
/// delete rule (`.cascade` deletes the new object, `.deny` refuses the save, other rules
/// remove the reference); a saved object moved to it stays where it was saved (the move is
/// dropped).
public enum MergePolicy {
  /// Every conflict refuses the save with ``ModelError/Code/conflict``; nothing is saved, and
  /// the context keeps its changes (the default).
  case rejectConflicts
  /// This context's values win: its attribute values and to-one targets replace the ones
  /// saved meanwhile, and its deletions go ahead (their delete rules applied to what the
  /// objects are related to now).
  case lastWriterWins
  /// The values saved meanwhile win: this context's colliding attribute values and to-one
  /// targets are dropped. Its deletions still go ahead.
  case storeWins
  /// `resolve` settles each conflict; ``ConflictResolution/reject`` refuses the save.
  case custom((ModelConflict) -> ConflictResolution)
}
