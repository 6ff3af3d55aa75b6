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
  ///
  /// Equal when the identifier, the attribute names and the relationship flag are.
  public struct Update: Sendable, Hashable {
    /// The object.
    public let identifier: PersistentIdentifier
    /// Whether any of its relationships was written.
    public let relationshipsChanged: Bool
    private let written: WrittenAttributes

    /// The names of the attributes written.
    ///
    /// - Complexity: O(attributes) (a save records slots, and names them when asked).
    public var attributes: Set<String> {
      switch written {
      case .names(let names): names
      case .slots(let slots, let names): names.names(of: slots)
      }
    }

    /// The number of attributes written.
    var attributeCount: Int {
      switch written {
      case .names(let names): names.count
      case .slots(let slots, let names): slots.count(below: names.names.count)
      }
    }

    /// Calls `body` with the name of each attribute written, in ascending order; for slots,
    /// without making a set of names or sorting.
    func forEachAttributeByName(_ body: (String) throws -> Void) rethrows {
      switch written {
      case .names(let names):
        for name in names.sorted() { try body(name) }
      case .slots(let slots, let names):
        for slot in names.byName where slots.contains(slot) { try body(names.names[slot]) }
      }
    }

    init(identifier: PersistentIdentifier, attributes: Set<String>, relationshipsChanged: Bool) {
      self.identifier = identifier
      self.relationshipsChanged = relationshipsChanged
      written = .names(attributes)
    }

    /// An update whose written attributes are `slots` of the entity `names` names, without a
    /// set of names per object.
    init(
      identifier: PersistentIdentifier, slots: SlotSet, of names: AttributeNames,
      relationshipsChanged: Bool
    ) {
      self.identifier = identifier
      self.relationshipsChanged = relationshipsChanged
      written = .slots(slots, names)
    }

    /// Whether the identifiers, the attribute names and the relationship flags are equal.
    public static func == (lhs: Update, rhs: Update) -> Bool {
      lhs.identifier == rhs.identifier && lhs.relationshipsChanged == rhs.relationshipsChanged
        && lhs.attributes == rhs.attributes
    }

    /// Hashes the identifier, the attribute names and the relationship flag.
    public func hash(into hasher: inout Hasher) {
      hasher.combine(identifier)
      hasher.combine(relationshipsChanged)
      hasher.combine(attributes)
    }
  }

  /// The attributes an ``Update`` wrote: names, or slots of an entity's attributes.
  private enum WrittenAttributes: Sendable {
    case names(Set<String>)
    case slots(SlotSet, AttributeNames)
  }

  /// The attribute names of one entity, by slot, shared by the updates of one save.
  final class AttributeNames: Sendable {
    let names: [String]
    /// The slots in ascending order of their names.
    let byName: [Int]

    init(_ names: [String]) {
      self.names = names
      byName = names.indices.sorted { names[$0] < names[$1] }
    }

    /// The names of `slots` (those below the entity's attribute count).
    func names(of slots: SlotSet) -> Set<String> {
      var result = Set<String>()
      slots.forEachSlot(below: names.count) { result.insert(names[$0]) }
      return result
    }
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
