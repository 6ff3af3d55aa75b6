import ModelGraphCore

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
///
/// ``unique(_:_:_:)`` with two or more key paths declares a compound unique constraint (the
/// analogue of `#Unique<Person>([\.givenName, \.familyName])`): saves reject an object whose
/// values in those attributes, together, equal another object's of the class or a subclass.
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
  /// The attribute indexed (the first one of a compound unique constraint).
  public var keyPath: any AnyKeyPath & Sendable { keyPaths[0] }
  /// The attributes, in order: one for an index, two or more for a compound unique constraint.
  public let keyPaths: [any AnyKeyPath & Sendable]
  /// Whether each value (each combination of values, for several attributes) belongs to at
  /// most one object; saves enforce it.
  public let isUnique: Bool

  private init(kind: Kind, keyPath: any AnyKeyPath & Sendable, isUnique: Bool) {
    self.kind = kind
    self.keyPaths = [keyPath]
    self.isUnique = isUnique
  }

  /// An ordered index on `keyPath`: equality, ranges, prefixes and sort order.
  ///
  /// - Complexity: A fetch that uses it finds its first row in O(log n) for n rows of the
  ///   table and yields each further row in O(1) amortized; a sorted deep fetch merges t
  ///   tables' walks, O(t log n) to start and O(t) per row. A save that changes m rows of the
  ///   table updates it in O(n + m log m).
  public static func ordered<Root: PersistentModel, Value: Comparable>(
    _ keyPath: any KeyPath<Root, Value> & Sendable
  ) -> ModelIndex {
    ModelIndex(kind: .ordered, keyPath: keyPath, isUnique: false)
  }

  /// An ordered index on an optional attribute; `nil` sorts first.
  ///
  /// - Complexity: As the `ordered(_:)` of a non-optional attribute.
  public static func ordered<Root: PersistentModel, Value: Comparable>(
    _ keyPath: any KeyPath<Root, Value?> & Sendable
  ) -> ModelIndex {
    ModelIndex(kind: .ordered, keyPath: keyPath, isUnique: false)
  }

  /// A hash index on `keyPath`: equality and lists.
  ///
  /// - Complexity: A fetch that uses it finds k values in O(k) expected, plus the rows
  ///   returned. A save that changes m rows of the table updates it in O(256 + m × bucket
  ///   size).
  public static func hash<Root: PersistentModel, Value: Hashable>(
    _ keyPath: any KeyPath<Root, Value> & Sendable
  ) -> ModelIndex {
    ModelIndex(kind: .hash, keyPath: keyPath, isUnique: false)
  }

  /// A hash index on `keyPath` whose values are unique (SwiftData's `#Unique` with one key
  /// path); saves reject a duplicate, like `@Attribute(.unique)`.
  ///
  /// - Complexity: As ``hash(_:)``; a save checks each written value in O(1) expected per
  ///   table of the class hierarchy.
  public static func unique<Root: PersistentModel, Value: Hashable>(
    _ keyPath: any KeyPath<Root, Value> & Sendable
  ) -> ModelIndex {
    ModelIndex(kind: .hash, keyPath: keyPath, isUnique: true)
  }

  /// A compound unique constraint: no two objects of the class and its subclasses may hold the
  /// same values in all of these attributes (SwiftData's `#Unique` with a group of key paths).
  ///
  /// An object with `nil` in any of the attributes never conflicts. The constraint has no index
  /// of its own; declare one on a selective attribute to speed up fetches.
  /// - Complexity: A save that writes one of the attributes checks the constraint in
  ///   O(objects of the declaring class and its subclasses).
  public static func unique<Root: PersistentModel>(
    _ first: any PartialKeyPath<Root> & Sendable, _ second: any PartialKeyPath<Root> & Sendable,
    _ more: (any PartialKeyPath<Root> & Sendable)...
  ) -> ModelIndex {
    ModelIndex(kind: .hash, keyPaths: [first, second] + more, isUnique: true)
  }

  private init(kind: Kind, keyPaths: [any AnyKeyPath & Sendable], isUnique: Bool) {
    self.kind = kind
    self.keyPaths = keyPaths
    self.isUnique = isUnique
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
