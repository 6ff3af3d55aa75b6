public import ModelGraphCore

/// A change of a context that collides with a save another context published since the first
/// one read the object; ``ModelError/conflicts`` lists them when a save is refused.
public struct ModelConflict: Sendable, Hashable, CustomStringConvertible {
  /// What collided.
  public enum Kind: String, Sendable, Hashable {
    /// Both contexts changed the attribute ``property`` to different values.
    case attribute
    /// Both contexts set the to-one relationship ``property`` to different objects.
    case relationship
    /// This context changed the object; another context deleted it.
    case changedDeletedObject
    /// This context points relationship ``property`` at ``myTarget``, which another context
    /// deleted.
    case referencesDeletedObject
    /// This context deleted the object; another context changed it.
    case deletedChangedObject
  }

  /// What collided.
  public var kind: Kind
  /// The class of the object concerned.
  public var entity: String
  /// The object concerned.
  public var identifier: PersistentIdentifier
  /// The attribute or relationship concerned, if the conflict is about one.
  public var property: String?
  /// This context's attribute value.
  public var mine: ModelValue?
  /// The attribute value the other context saved.
  public var theirs: ModelValue?
  /// The object this context's relationship points at (for a reference to a deleted object,
  /// the deleted one).
  public var myTarget: PersistentIdentifier?
  /// The object the other context's save points the same relationship at.
  public var theirTarget: PersistentIdentifier?

  /// `Entity.property (identifier): what collided`, with both values where there are two.
  public var description: String {
    let subject = "\(entity)\(property.map { ".\($0)" } ?? "") (\(identifier))"
    switch kind {
    case .attribute:
      return "\(subject): changed here to \(mine?.description ?? "?") and elsewhere to "
        + "\(theirs?.description ?? "?")"
    case .relationship:
      return "\(subject): set here to \(myTarget.map { "\($0)" } ?? "nil") and elsewhere to "
        + "\(theirTarget.map { "\($0)" } ?? "nil")"
    case .changedDeletedObject:
      return "\(subject): changed here, deleted elsewhere"
    case .referencesDeletedObject:
      return "\(subject): points at \(myTarget.map { "\($0)" } ?? "?"), deleted elsewhere"
    case .deletedChangedObject:
      return "\(subject): deleted here, changed elsewhere"
    }
  }
}

extension ModelContext {
  /// The typed description of an engine conflict.
  func modelConflict(_ conflict: Conflict) -> ModelConflict {
    let entity = session.catalog(covering: Int(conflict.key.entity)).entities[
      Int(conflict.key.entity)]
    var result = ModelConflict(
      kind: .attribute, entity: entity.name, identifier: identifier(for: conflict.key),
      property: nil, mine: conflict.mine, theirs: conflict.theirs,
      myTarget: conflict.myTarget.map(identifier(for:)),
      theirTarget: conflict.theirTarget.map(identifier(for:)))
    switch conflict.kind {
    case .attribute(let slot):
      result.property = entity.attributes[slot].name
    case .relationship(let slot):
      result.kind = .relationship
      result.property = entity.relationships[slot].name
    case .changedDeletedObject:
      result.kind = .changedDeletedObject
    case .referencesDeletedObject(let slot, let target):
      result.kind = .referencesDeletedObject
      result.property = entity.relationships[slot].name
      result.myTarget = identifier(for: target)
    case .deletedChangedObject:
      result.kind = .deletedChangedObject
    }
    return result
  }

  /// The engine's resolver for the context's ``mergePolicy``.
  func conflictResolver() -> (Conflict) -> ConflictResolution {
    switch mergePolicy {
    case .rejectConflicts: { _ in .reject }
    case .lastWriterWins: { _ in .keepMine }
    case .storeWins: { _ in .keepStore }
    case .custom(let resolve): { [unowned self] in resolve(modelConflict($0)) }
    }
  }
}
