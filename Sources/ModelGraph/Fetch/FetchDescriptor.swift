/// What to fetch: a model class, a predicate, a sort order, and how many.
///
/// ```swift
/// let oslo = "Oslo"
/// var descriptor = FetchDescriptor<Trip>(
///   predicate: #Predicate { $0.destination == oslo },
///   sortBy: [SortDescriptor(\.startDate, order: .reverse)])
/// descriptor.fetchLimit = 10
/// let trips = try context.fetch(descriptor)
/// ```
/// A fetch of a base class returns objects of every subclass, each as its own class; set
/// ``includesSubclasses`` to `false` to get only objects of exactly `T`.
///
/// The predicate and sort are compiled into the engine's query plan
/// (``ModelContext/explain(_:)`` shows it): the predicate runs over typed columns and indexes,
/// a part the engine cannot translate runs as `Predicate.evaluate` on the candidate objects.
/// Sorts compare with Swift's `<` and put `nil` first when ascending, as Foundation's
/// `SortDescriptor` does; a descriptor with a string comparator is applied by Foundation.
/// Combine predicates chosen at run time with ``CompoundPredicate``.
public struct FetchDescriptor<T: PersistentModel>: Sendable {
  /// Which objects; all when `nil`.
  public var predicate: Predicate<T>?
  /// The order of the results; class by class, then row by row, when empty.
  public var sortBy: [SortDescriptor<T>]
  /// The most objects to return; all when `nil`. A negative limit makes the fetch throw
  /// ``ModelError/Code/invalidDescriptor``; any other limit, up to `Int.max`, is honoured.
  public var fetchLimit: Int?
  /// How many matching objects to skip first; a negative offset makes the fetch throw
  /// ``ModelError/Code/invalidDescriptor``, one past the last match gives no objects.
  public var fetchOffset: Int?
  /// Whether results include the objects the context inserted and has not saved (default
  /// `true`). Either way, objects the context deleted are left out, and objects it changed are
  /// tested and sorted on their unsaved values (the values the returned objects show).
  public var includePendingChanges = true
  /// Whether objects of `T`'s subclasses are returned too (default `true`).
  ///
  /// SwiftData has no such option; Core Data's `includesSubentities` does the same.
  public var includesSubclasses = true
  /// Relationships of `T` to resolve for all results in one pass, so reading them later
  /// creates no objects.
  public var relationshipKeyPathsForPrefetching: [any PartialKeyPath<T> & Sendable] = []
  /// The properties to load; accepted for SwiftData compatibility. Fetched objects are
  /// handles that read their table's columns on demand, so every property is available and
  /// none is copied ahead.
  public var propertiesToFetch: [any PartialKeyPath<T> & Sendable] = []

  /// A descriptor for objects of `T` matching `predicate`, sorted by `sortBy`.
  public init(predicate: Predicate<T>? = nil, sortBy: [SortDescriptor<T>] = []) {
    self.predicate = predicate
    self.sortBy = sortBy
  }
}
