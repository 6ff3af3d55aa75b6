/// A snapshot file that cannot be read or written: the path, the section and the byte offset.
public struct SnapshotError: Error, Sendable, Hashable, CustomStringConvertible {
  /// What went wrong.
  public enum Code: String, Sendable, Hashable {
    /// The file does not start with the snapshot magic bytes.
    case badMagic
    /// The file was written by a newer format version.
    case unsupportedVersion
    /// The file ends before a section it announces.
    case truncated
    /// A block's checksum does not match its bytes.
    case checksumMismatch
    /// A length, count or value inside a block is impossible.
    case malformed
    /// The operating system refused an operation (open, read, write, fsync, rename, lock).
    case io
    /// Another process holds the store file.
    case locked
    /// The file's schema differs from the code's and no migration covers the difference.
    case schemaMismatch
    /// A string or data value is too long for the format (4 GiB or more); nothing was written.
    case valueTooLarge
  }

  /// What went wrong.
  public var code: Code
  /// The file concerned.
  public var path: String
  /// The part of the file (header, schema, a table's column, footer) or the operation.
  public var section: String
  /// The byte offset in the file, when it applies.
  public var offset: Int?
  /// A sentence for a person.
  public var message: String

  /// Makes an error.
  public init(_ code: Code, path: String, section: String, offset: Int? = nil, message: String) {
    self.code = code
    self.path = path
    self.section = section
    self.offset = offset
    self.message = message
  }

  /// `path: section at offset N: message`.
  public var description: String {
    "\(path): \(section)\(offset.map { " at byte \($0)" } ?? ""): \(message)"
  }
}
