/// A PostgreSQL store could not do what was asked; nothing half-done is left behind.
public struct PostgreSQLError: Error, Sendable, Equatable, CustomStringConvertible {
  /// What went wrong.
  public enum Code: String, Sendable {
    /// libpq could not be loaded: install the Debian package `libpq5`.
    case libraryUnavailable
    /// The URL is not a `postgresql://` URL libpq accepts.
    case invalidURL
    /// No server answered at the URL's host, port or socket.
    case unreachable
    /// The server refused the user, password or database.
    case authenticationFailed
    /// The connection broke; a save that was under way was not applied (or, if its commit
    /// reached the server, it is published once the store reconnects).
    case connectionLost
    /// The server refused a statement (the SQLSTATE is in ``sqlState``); or, without a
    /// SQLSTATE, saves made elsewhere kept changing what a read of a store keeping only fetched
    /// objects needed, and it gave up: a fetch of a context with unsaved changes then left the
    /// context as it was before the fetch (try again).
    case server
    /// The database holds something the store cannot read back into its schema.
    case malformed
    /// A value PostgreSQL cannot hold (a string with the NUL character).
    case unsupportedValue
    /// The store was closed.
    case closed
    /// A store that keeps only fetched objects in memory cannot run this part of a migration
    /// (a rewrite of every object): open it once with every object (without
    /// `residency=fetched`). Migration stages run in the database.
    case migrationNeedsAllObjects
    /// A fetch from a store that keeps only fetched objects was asked of a context with
    /// unsaved changes. No longer thrown: such a fetch sees the changes (kept so that code
    /// matching on it still compiles).
    case unsavedChanges
    /// A save broke a unique attribute or constraint against an object that is not in memory
    /// (with `residency=fetched`), found by PostgreSQL at the commit; ``uniqueViolation`` says
    /// which. Nothing was saved.
    case notUnique
    /// Another process migrated the database's schema since this store opened: the store
    /// neither saves nor reads any more. Close the container and open it again (with the
    /// classes of the new schema).
    case schemaChanged
  }

  /// The unique rule a save broke, and its value, as PostgreSQL reported it.
  public struct UniqueViolation: Sendable, Equatable {
    /// The class of the object holding the duplicate value.
    public var entity: String
    /// The properties of the rule, in its order.
    public var properties: [String]
    /// The duplicate value as the in-memory check prints it (`"AB-1"`, `("North", 7)`) when
    /// the save's object holding it was found; otherwise as PostgreSQL prints it (values of a
    /// compound rule joined by ", ").
    public var value: String
    /// The row, in the save, of an object holding that value, when one could be told.
    public var row: Int?
  }

  /// What went wrong.
  public let code: Code
  /// The SQLSTATE of a server error.
  public let sqlState: String?
  /// The explanation.
  public let message: String
  /// With code ``Code/notUnique``: the rule broken.
  public internal(set) var uniqueViolation: UniqueViolation?
  /// The table a server error names (PostgreSQL's `t` field).
  var table: String?
  /// The server's detail line (PostgreSQL's `D` field).
  var detail: String?

  /// An error of `code`.
  public init(_ code: Code, sqlState: String? = nil, message: String) {
    self.code = code
    self.sqlState = sqlState
    self.message = message
  }

  /// `PostgreSQL error (code): message`.
  public var description: String {
    "PostgreSQL error (\(code.rawValue)\(sqlState.map { ", SQLSTATE \($0)" } ?? "")): \(message)"
  }
}
