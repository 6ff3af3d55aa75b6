public import ModelGraphCore

/// What remains of a deleted object after the save that deleted it: its identity, class and
/// the values of its attributes marked `.preserveValueOnDeletion`.
public struct DeletionRecord: Sendable, Hashable {
  /// The deleted object's identifier.
  public var identifier: PersistentIdentifier
  /// The deleted object's class name.
  public var entityName: String
  /// The preserved attribute values, by property name.
  public var preservedValues: [String: ModelValue]
}
