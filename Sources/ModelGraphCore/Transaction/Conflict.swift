/// A change of one session that collides with a save another session published since the
/// first one read the object.
///
/// ``Session/rebaseOntoLatest(resolving:)`` finds every conflict before it changes anything,
/// so a save that is refused leaves the store and the session as they were.
public struct Conflict: Sendable, Hashable {
  /// What collided.
  public enum Kind: Sendable, Hashable {
    /// Both sessions changed attribute `slot` of the object, to different values.
    case attribute(slot: Int)
    /// Both sessions set the to-one relationship `slot` of the object, to different objects.
    case relationship(slot: Int)
    /// This session changed the object; another session deleted it.
    case changedDeletedObject
    /// This session points relationship `slot` of the object at `target`, which another
    /// session deleted.
    case referencesDeletedObject(slot: Int, target: ObjectKey)
    /// This session deleted the object; another session changed it.
    case deletedChangedObject
  }

  /// What collided.
  public var kind: Kind
  /// The object concerned.
  public var key: ObjectKey
  /// This session's value: the attribute's value, or the related objects of a relationship.
  public var mine: ModelValue?
  /// The value the other session published, in the same form as ``mine``.
  public var theirs: ModelValue?
  /// The object this session points a conflicting to-one relationship at.
  public var myTarget: ObjectKey?
  /// The object the other session pointed the same relationship at.
  public var theirTarget: ObjectKey?

  /// Makes a conflict.
  public init(
    _ kind: Kind, key: ObjectKey, mine: ModelValue? = nil, theirs: ModelValue? = nil,
    myTarget: ObjectKey? = nil, theirTarget: ObjectKey? = nil
  ) {
    self.kind = kind
    self.key = key
    self.mine = mine
    self.theirs = theirs
    self.myTarget = myTarget
    self.theirTarget = theirTarget
  }
}

/// How one `Conflict` is settled when a session replays its changes onto a newer version.
public enum ConflictResolution: Sendable, Hashable {
  /// This session's change wins: its attribute value or relationship target is kept; its
  /// deletion goes ahead, with the delete rules applied to what the object is related to now.
  case keepMine
  /// The published change wins: this session's value is dropped. A deletion is never undone:
  /// for `Conflict.Kind.deletedChangedObject` this session's deletion still goes ahead.
  case keepStore
  /// The save is refused: nothing is published and the session keeps its changes.
  case reject
}

/// A save refused because of conflicts with saves other sessions published first.
public struct ConflictError: Error, Sendable {
  /// Every conflict that was not resolved, in the order found.
  public var conflicts: [Conflict]
}
