/// An index a model class declares on one of its attributes: the analogue of SwiftData's
/// `#Index` and `#Unique`.
///
/// ```swift
/// class Trip: PersistentModel, IndexedModel {
///   @Attribute var name: String
///   @Attribute var startDate: Date
///   class var indexes: [ModelIndex] { [.ordered(\Trip.startDate)] }
/// }
/// class BusinessTrip: Trip {
///   @Attribute var company: String
///   override class var indexes: [ModelIndex] { [.hash(\BusinessTrip.company)] }
/// }
/// ```
/// An index declared by a class exists on the table of that class and of every subclass, so a
/// deep fetch of `Trip` reads the `startDate` index of the `Trip`, `BusinessTrip` and
/// `PersonalTrip` tables and merges them. An attribute declared `@Attribute(.unique)` gets a
/// unique hash index without a declaration.
public struct ModelIndex: Sendable {
  /// What the index answers.
  public enum Kind: Sendable, Hashable {
    /// Equality, ranges, prefixes and sort order (`startDate >= lo`, `sortBy: startDate`).
    case ordered
    /// Equality and lists (`company == name`, `[a, b].contains($0.company)`).
    case hash
  }

  /// What the index answers.
  public let kind: Kind
  /// The attribute indexed.
  public let keyPath: any AnyKeyPath & Sendable
  /// Whether each value belongs to at most one object (declare the attribute `.unique` to have
  /// saves enforce it).
  public let isUnique: Bool

  /// An ordered index on `keyPath`: equality, ranges, prefixes and sort order.
  public static func ordered<Root: PersistentModel, Value: Comparable>(
    _ keyPath: any KeyPath<Root, Value> & Sendable
  ) -> ModelIndex {
    ModelIndex(kind: .ordered, keyPath: keyPath, isUnique: false)
  }

  /// An ordered index on an optional attribute; `nil` sorts first.
  public static func ordered<Root: PersistentModel, Value: Comparable>(
    _ keyPath: any KeyPath<Root, Value?> & Sendable
  ) -> ModelIndex {
    ModelIndex(kind: .ordered, keyPath: keyPath, isUnique: false)
  }

  /// A hash index on `keyPath`: equality and lists.
  public static func hash<Root: PersistentModel, Value: Hashable>(
    _ keyPath: any KeyPath<Root, Value> & Sendable
  ) -> ModelIndex {
    ModelIndex(kind: .hash, keyPath: keyPath, isUnique: false)
  }

  /// A hash index on `keyPath` whose values are unique (SwiftData's `#Unique`).
  public static func unique<Root: PersistentModel, Value: Hashable>(
    _ keyPath: any KeyPath<Root, Value> & Sendable
  ) -> ModelIndex {
    ModelIndex(kind: .hash, keyPath: keyPath, isUnique: true)
  }
}

/// A model class that declares indexes.
///
/// Declare `indexes` as a `class var` so subclasses can add their own with `override`; a
/// subclass that does not override it inherits its parent's, which it has anyway.
public protocol IndexedModel: PersistentModel {
  /// The indexes this class declares, on its own attributes or inherited ones.
  static var indexes: [ModelIndex] { get }
}
