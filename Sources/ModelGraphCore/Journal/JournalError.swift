/// A journal that cannot be read, appended to or synced: the path, the byte offset and what
/// went wrong.
public struct JournalError: Error, Sendable, Hashable, CustomStringConvertible {
  /// What went wrong.
  public enum Code: String, Sendable, Hashable {
    /// The operating system refused a write, a sync or a file operation (ENOSPC, EIO).
    case io
    /// The journal's header is damaged, truncated, or the file is not a journal.
    case badHeader
    /// The journal was written by a newer format version.
    case unsupportedVersion
    /// The journal belongs to another snapshot generation than the snapshot beside it.
    case generationMismatch
    /// A record whose checksum matches says something impossible.
    case malformed
    /// The container was opened read-only, so nothing can be saved.
    case readOnly
    /// An earlier sync failed: the journal takes no more appends until the store is reopened.
    case failed
    /// A string or data value is too long for the format (4 GiB or more); nothing was saved.
    case valueTooLarge
  }

  /// What went wrong.
  public var code: Code
  /// The journal file.
  public var path: String
  /// The byte offset in the file, when it applies.
  public var offset: Int?
  /// A sentence for a person.
  public var message: String

  /// Makes an error.
  public init(_ code: Code, path: String, offset: Int? = nil, message: String) {
    self.code = code
    self.path = path
    self.offset = offset
    self.message = message
  }

  /// `path at byte N: message`.
  public var description: String {
    "\(path)\(offset.map { " at byte \($0)" } ?? ""): \(message)"
  }
}
