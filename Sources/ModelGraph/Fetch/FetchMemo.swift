import Foundation
import ModelGraphCore

/// The last few fetch descriptors a context ran from a bound plan, by what decides their plan
/// apart from the predicate's captured values: a descriptor like one of them runs its bound
/// plan with its own values, without translating its sort, building a request or looking
/// the plan up.
///
/// An entry matches a descriptor with the same model class, the same type of predicate tree
/// (which fixes its structure) whose key paths, operators and bindings match the entry's
/// shape, sort descriptors with the very key path objects and orders and no string comparator,
/// the same limit, offset and flags, and captured values of the same kinds (nil and
/// Booleans by value, as the plan cache keys them). The plan itself checks that it fits what
/// the session reads, and the plan cache that it still keeps it; otherwise the fetch takes
/// the usual path, which records a new entry. Not `Sendable`: it belongs to its context.
final class FetchMemo {
  /// The most entries kept.
  static let capacity = 4

  /// A sort descriptor as the memo compares it.
  struct SortKey {
    /// The key path object (held, so no other key path takes its identity).
    let keyPath: AnyKeyPath
    let isForward: Bool
    /// Whether the key path reads a string, so a descriptor of it may have a string
    /// comparator (the engine does not sort by those).
    let readsString: Bool
  }

  /// What decides a descriptor's plan besides its predicate: its class, the type of its
  /// predicate's tree, its sort, window and flags.
  struct Key {
    let model: ObjectIdentifier
    /// The type of the predicate's tree; `nil` for a descriptor without a predicate.
    let expression: ObjectIdentifier?
    let sort: [SortKey]
    let limit: Int?
    let offset: Int?
    let includesSubclasses: Bool
    let includePendingChanges: Bool

    /// The key of `descriptor`, whose predicate's tree has the type `expression` and whose
    /// sort is `sort` (``FetchMemo/sortKeys(_:)``).
    init<T>(_ descriptor: FetchDescriptor<T>, expression: ObjectIdentifier?, sort: [SortKey]) {
      model = ObjectIdentifier(T.self)
      self.expression = expression
      self.sort = sort
      limit = descriptor.fetchLimit
      offset = descriptor.fetchOffset
      includesSubclasses = descriptor.includesSubclasses
      includePendingChanges = descriptor.includePendingChanges
    }

    /// Whether `other` is the key of the same descriptors.
    func isSame(as other: Key) -> Bool {
      model == other.model && expression == other.expression && limit == other.limit
        && offset == other.offset && includesSubclasses == other.includesSubclasses
        && includePendingChanges == other.includePendingChanges
        && sort.count == other.sort.count
        && zip(sort, other.sort).allSatisfy {
          $0.keyPath === $1.keyPath && $0.isForward == $1.isForward
        }
    }

    /// Whether `descriptor`, whose predicate's tree has the type `expression` and whose
    /// predicate and first sort descriptor `probe` read, has this key (its predicate's key
    /// paths and values are checked by a walk against the entry's shape).
    func matches<T>(
      _ descriptor: FetchDescriptor<T>, probe: FetchProbe, expression: ObjectIdentifier?
    ) -> Bool {
      guard model == ObjectIdentifier(T.self), self.expression == expression,
        limit == descriptor.fetchLimit, offset == descriptor.fetchOffset,
        includesSubclasses == descriptor.includesSubclasses,
        includePendingChanges == descriptor.includePendingChanges,
        probe.sortCount == sort.count
      else { return false }
      guard let first = sort.first else { return true }
      guard probe.firstKeyPath === first.keyPath, probe.firstIsForward == first.isForward,
        !probe.firstHasComparator
      else { return false }
      return sort.count == 1 || laterKeysMatch(descriptor.sortBy)
    }

    /// Whether the sort descriptors after the first in `sortBy` are those of this key.
    private func laterKeysMatch<T>(_ sortBy: [SortDescriptor<T>]) -> Bool {
      guard sortBy.count == sort.count else { return false }
      // By index: `zip` over a generic element is not specialized here, and costs more
      // than the rest of the match.
      for position in 1..<sort.count {
        let descriptor = sortBy[position]
        let key = sort[position]
        guard descriptor.order == (key.isForward ? .forward : .reverse),
          descriptor.keyPath === key.keyPath,
          !key.readsString || descriptor.stringComparator == nil
        else { return false }
      }
      return true
    }
  }

  final class Entry {
    let key: Key
    /// The predicate's shape and its translation.
    let shape: PredicateShapeCache.Entry?
    /// The kinds of the values the plan was bound for.
    let identity: QueryShapeIdentity?
    /// The request the plan runs for (the values aside).
    let request: QueryRequest
    let plan: PreparedBoundPlan
    /// The node type of the predicate's root, which the key's tree type fixes (found once,
    /// not per fetch); `nil` without a predicate.
    let walkable: (any PredicateShapeWalkable.Type)?

    init(
      key: Key, shape: PredicateShapeCache.Entry?, identity: QueryShapeIdentity?,
      request: QueryRequest, plan: PreparedBoundPlan,
      walkable: (any PredicateShapeWalkable.Type)?
    ) {
      self.key = key
      self.walkable = walkable
      self.shape = shape
      self.identity = identity
      self.request = request
      self.plan = plan
    }
  }

  /// The entries, the last used first.
  private var entries: [Entry] = []

  /// The number of entries kept (for tests).
  var count: Int { entries.count }
  /// How many fetches ran from an entry (for tests).
  private(set) var hits = 0

  /// Counts a fetch that ran from an entry.
  func countHit() { hits += 1 }

  /// The entry matching `descriptor` (whose predicate and first sort descriptor `probe`
  /// read) but for its predicate's key paths and values, moved first.
  func entry<T>(
    for descriptor: FetchDescriptor<T>, probe: FetchProbe, expression: ObjectIdentifier?
  ) -> Entry? {
    guard !entries.isEmpty else { return nil }
    if entries[0].key.matches(descriptor, probe: probe, expression: expression) {
      return entries[0]
    }
    guard
      let position = entries.indices.dropFirst().first(where: {
        entries[$0].key.matches(descriptor, probe: probe, expression: expression)
      })
    else { return nil }
    let found = entries.remove(at: position)
    entries.insert(found, at: 0)
    return found
  }

  /// Keeps `entry` first, in place of an entry for the same descriptor, forgetting the least
  /// recently used when full.
  func remember(_ entry: Entry) {
    entries.removeAll {
      $0.key.isSame(as: entry.key) && $0.shape === entry.shape && $0.identity == entry.identity
    }
    entries.insert(entry, at: 0)
    if entries.count > Self.capacity { entries.removeLast() }
  }

  /// Forgets `entry` (its plan no longer fits, or the cache dropped it).
  func forget(_ entry: Entry) {
    entries.removeAll { $0 === entry }
  }

  /// The memo's form of `sort`, when every descriptor has a key path and no string
  /// comparator; else `nil` (such a sort is not memoized).
  static func sortKeys<T>(_ sort: [SortDescriptor<T>]) -> [SortKey]? {
    var keys: [SortKey] = []
    for descriptor in sort {
      guard let keyPath = descriptor.keyPath, descriptor.stringComparator == nil else {
        return nil
      }
      let value = type(of: keyPath).valueType
      keys.append(
        SortKey(
          keyPath: keyPath, isForward: descriptor.order == .forward,
          readsString: value == String.self || value == String?.self))
    }
    return keys
  }
}
