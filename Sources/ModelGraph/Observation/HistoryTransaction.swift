public import ModelGraphCore

/// A saved transaction as the history API returns it (SwiftData's `HistoryTransaction`).
public protocol HistoryTransaction: Sendable {
  /// The transaction's token, to fetch the transactions after it.
  var token: DefaultHistoryToken { get }
}

/// The position of a transaction in a store's history: `Codable` (to keep between runs) and
/// ordered by commit.
public struct DefaultHistoryToken: Codable, Comparable, Hashable, Sendable {
  /// The store version the transaction published.
  public let version: UInt64

  /// The token of the transaction that published `version`.
  public init(version: UInt64) { self.version = version }

  /// Orders by commit.
  public static func < (lhs: Self, rhs: Self) -> Bool { lhs.version < rhs.version }
}

/// One object's change in a transaction.
public enum HistoryChange: Sendable, Hashable {
  /// The object was inserted.
  case insert(PersistentIdentifier)
  /// The saved object was changed; the names of the attributes written.
  case update(PersistentIdentifier, updatedAttributes: Set<String>)
  /// The object was deleted; its attributes marked `.preserveValueOnDeletion`, by name.
  case delete(PersistentIdentifier, tombstone: [String: ModelValue])

  /// The object the change is about.
  public var changedPersistentIdentifier: PersistentIdentifier {
    switch self {
    case .insert(let identifier), .update(let identifier, _), .delete(let identifier, _):
      identifier
    }
  }
}

/// One save in the history: its token, author, time and changes (SwiftData's
/// `DefaultHistoryTransaction`).
public struct DefaultHistoryTransaction: HistoryTransaction, Hashable {
  /// The store version the save published (unique per store).
  public let transactionIdentifier: UInt64
  /// The transaction's position in the history.
  public let token: DefaultHistoryToken
  /// The saving context's ``ModelContext/author``.
  public let author: String?
  /// When the save was recorded.
  public let timestamp: Date
  /// The inserts, then the updates, then the deletes.
  public let changes: [HistoryChange]

  /// The transaction of a committed change.
  init(_ change: CommittedChange) {
    transactionIdentifier = change.version
    token = DefaultHistoryToken(version: change.version)
    author = change.author
    timestamp = change.date
    changes =
      change.inserted.map { .insert($0) }
      + change.updated.map { .update($0.identifier, updatedAttributes: $0.attributes) }
      + change.deleted.map { .delete($0.identifier, tombstone: $0.preservedValues) }
  }
}

/// Which transactions ``ModelContext/fetchHistory(_:)`` returns (SwiftData's
/// `HistoryDescriptor`).
public struct HistoryDescriptor<T: HistoryTransaction>: Sendable {
  /// The test a transaction passes to be returned; all when `nil`.
  public var predicate: Predicate<T>?
  /// The most transactions returned, oldest first; all when `nil`.
  public var fetchLimit: Int?

  /// A descriptor of the transactions `predicate` accepts.
  public init(predicate: Predicate<T>? = nil) {
    self.predicate = predicate
  }
}
