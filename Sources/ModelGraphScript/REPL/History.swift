import Foundation

/// The lines entered before, oldest first, optionally kept in a file across sessions.
///
/// Each remembered line is appended to the file at once, so a session that is killed keeps its
/// history and two sessions at a time both keep theirs. Loading keeps the newest ``limit``.
struct History {
  /// The entries, oldest first.
  private(set) var entries: [String] = []
  /// The file the entries are kept in, if any.
  let file: URL?
  /// The most entries loaded from the file.
  let limit: Int

  /// A history kept in `file` (read now), or only in memory when `file` is `nil`.
  init(file: URL? = nil, limit: Int = 1000) {
    self.file = file
    self.limit = limit
    guard let file, let data = try? Data(contentsOf: file) else { return }
    let lines = String(decoding: data, as: UTF8.self).split(separator: "\n").map(String.init)
    entries = Array(lines.suffix(limit))
  }

  /// The history file the REPL uses: `$MODELGRAPH_HISTORY` when set (empty turns history files
  /// off), else `~/.modelgraph_history` under `$HOME`.
  static func defaultFile(environment: [String: String] = ProcessInfo.processInfo.environment)
    -> URL?
  {
    if let path = environment["MODELGRAPH_HISTORY"] {
      return path.isEmpty ? nil : URL(fileURLWithPath: path)
    }
    guard let home = environment["HOME"], !home.isEmpty else { return nil }
    return URL(fileURLWithPath: home).appendingPathComponent(".modelgraph_history")
  }

  /// Adds `line` (not blank lines, not a repeat of the last entry) and appends it to the file.
  mutating func remember(_ line: String) {
    guard !line.allSatisfy(\.isWhitespace), entries.last != line, !line.contains("\n") else {
      return
    }
    entries.append(line)
    guard let file else { return }
    let bytes = Data((line + "\n").utf8)
    if let handle = try? FileHandle(forWritingTo: file) {
      _ = try? handle.seekToEnd()
      try? handle.write(contentsOf: bytes)
      try? handle.close()
    } else {
      // A first entry creates the file, readable by its owner only.
      _ = FileManager.default.createFile(
        atPath: file.path, contents: bytes, attributes: [.posixPermissions: 0o600])
    }
  }
}
