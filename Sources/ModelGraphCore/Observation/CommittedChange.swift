public import Foundation

/// What one save published: the store version it produced, who saved, and the objects it
/// inserted, updated and deleted.
///
/// Every save of every session on a store produces one, in commit order; subscribers of
/// `Store.changes(bufferingNewest:)` receive them.
public struct CommittedChange: Sendable {
  /// The version the save published; consecutive saves have consecutive numbers.
  public let version: UInt64
  /// The saving session's author name, if it set one.
  public let author: String?
  /// When the save's change was recorded.
  public let date: Date
  /// The objects the save inserted.
  public let inserted: [PersistentIdentifier]
  /// The saved objects the save changed, with the attributes written.
  public let updated: [Update]
  /// The objects the save deleted, with their values marked to be preserved.
  public let deleted: [Deletion]
  /// What the save touched per entity, for filtering without looking at every object.
  public let entities: [EntityTouch]

  /// A saved object that a save changed.
  public struct Update: Sendable, Hashable {
    /// The object.
    public let identifier: PersistentIdentifier
    /// The names of the attributes written.
    public let attributes: Set<String>
    /// Whether any of its relationships was written.
    public let relationshipsChanged: Bool
  }

  /// An object that a save deleted.
  public struct Deletion: Sendable, Hashable {
    /// The deleted object.
    public let identifier: PersistentIdentifier
    /// The values of its attributes marked to be preserved on deletion, by attribute name.
    public let preservedValues: [String: ModelValue]
  }

  /// What a save touched in one entity's table.
  public struct EntityTouch: Sendable, Hashable {
    /// The entity's index in the catalog.
    public let entity: Int
    /// The entity's name.
    public let name: String
    /// Whether objects were inserted or deleted.
    public let insertedOrDeleted: Bool
    /// The names of the attributes written on saved objects.
    public let attributes: Set<String>
    /// Whether relationships of saved objects were written.
    public let relationshipsChanged: Bool
  }
}
