import Foundation

/// Output to a file instead of standard output: `.output FILE` until `.output` alone, or
/// `.once FILE` for the next statement.
struct Redirection {
  /// The file written.
  let handle: FileHandle
  /// Its path, for messages.
  let path: String
  /// Whether only the next statement's output goes there.
  let isOnce: Bool
  /// The output the redirection replaced.
  let previous: (String) -> Void
}

extension ScriptEngine {
  /// Prints `result` in the output mode, with or without headers.
  func emit(_ result: ResultSet) {
    output(result.render(mode, headers: showsHeaders))
  }

  /// Sends output to `path` (created or emptied); `nil`, `stdout` or `-` sends it back.
  func redirect(to path: String?, once: Bool, at location: SourceLocation) throws {
    endRedirection()
    guard let path, path != "stdout", path != "-" else {
      if once { throw ScriptError(".once needs a file name", at: location) }
      return
    }
    guard FileManager.default.createFile(atPath: path, contents: nil),
      let handle = FileHandle(forWritingAtPath: path)
    else {
      throw ScriptError("cannot write \(path)", at: location)
    }
    let previous = output
    redirection = Redirection(handle: handle, path: path, isOnce: once, previous: previous)
    output = { text in handle.write(Data(text.utf8)) }
  }

  /// Closes the file output goes to, if any, and sends output back where it went before.
  func endRedirection() {
    guard let redirection else { return }
    self.redirection = nil
    try? redirection.handle.close()
    output = redirection.previous
  }
}
