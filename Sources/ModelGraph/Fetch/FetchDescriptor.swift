/// What to fetch: a model class, a predicate, a sort order, and how many.
///
/// ```swift
/// var descriptor = FetchDescriptor<Trip>(
///   predicate: #Predicate { $0.destination == "Oslo" },
///   sortBy: [SortDescriptor(\.startDate, order: .reverse)])
/// descriptor.fetchLimit = 10
/// let trips = try context.fetch(descriptor)
/// ```
/// A fetch of a base class returns objects of every subclass, each as its own class; set
/// ``includesSubclasses`` to `false` to get only objects of exactly `T`.
public struct FetchDescriptor<T: PersistentModel>: Sendable {
  /// Which objects; all when `nil`.
  public var predicate: Predicate<T>?
  /// The order of the results; when empty, results come class by class in an unspecified
  /// order within each class (rows are reused after deletions), as in SwiftData.
  public var sortBy: [SortDescriptor<T>]
  /// The most objects to return; all when `nil`.
  public var fetchLimit: Int?
  /// How many matching objects to skip first.
  public var fetchOffset: Int?
  /// Whether results include objects inserted and not yet saved (default `true`).
  ///
  /// Objects deleted in the context are never returned, saved or not; SwiftData returns them
  /// when this is `false`, but a deleted object cannot be used.
  public var includePendingChanges = true
  /// Whether objects of `T`'s subclasses are returned too (default `true`).
  ///
  /// SwiftData has no such option; Core Data's `includesSubentities` does the same.
  public var includesSubclasses = true
  /// Relationships to resolve for all results in one pass.
  public var relationshipKeyPathsForPrefetching: [any PartialKeyPath<T> & Sendable] = []

  /// A descriptor for objects of `T` matching `predicate`, sorted by `sortBy`.
  public init(predicate: Predicate<T>? = nil, sortBy: [SortDescriptor<T>] = []) {
    self.predicate = predicate
    self.sortBy = sortBy
  }
}
