import Foundation

/// Tab completion for the REPL: statements at the start of a statement, dot-commands after a
/// leading `.`, class names where a class is expected, and attribute and relationship names
/// after `Class.` or `relationship.` and in the clauses of a statement about a class.
struct Completer {
  /// The properties of a class, inherited ones included.
  struct Members: Equatable, Sendable {
    /// Attribute names, in declaration order.
    var attributes: [String]
    /// Relationship names and the classes they point at.
    var relationships: [(name: String, destination: String)]

    static func == (lhs: Members, rhs: Members) -> Bool {
      lhs.attributes == rhs.attributes
        && lhs.relationships.map(\.name) == rhs.relationships.map(\.name)
        && lhs.relationships.map(\.destination) == rhs.relationships.map(\.destination)
    }

    var names: [String] { attributes + relationships.map(\.name) }
  }

  /// What completing a line offers: the text from `start` (a character offset) to the cursor
  /// is replaced by one of `candidates`.
  struct Completion: Equatable {
    /// Where the word being completed starts.
    var start: Int
    /// The words that complete it, sorted.
    var candidates: [String]
    /// Whether a single candidate is followed by a space.
    var addsSpace = false
  }

  /// The classes and their members.
  var classes: [String: Members]
  /// The entries of a directory (`.` for the current one), directories with a trailing `/`.
  var listDirectory: (String) -> [String] = Completer.entries
  /// The fields of a Codable value, for a relationship destination that starts with
  /// ``codablePrefix`` (`{}Address`): nested values as relationships, read only when Tab
  /// reaches one.
  var codableFields: ((String) -> Members?)? = nil

  /// Marks a destination that is a Codable type's path, not a class.
  static let codablePrefix = "{}"

  /// Dot-commands whose first argument is a file.
  private static let fileCommands: Set<String> = ["read", "import", "output", "once", "open"]

  static let statements = [
    "alter", "avg", "begin", "codable", "commit", "count", "delete", "entity", "fetch", "insert",
    "let",
    "load", "max", "min", "open", "rollback", "save", "snapshot", "sum", "update",
  ]
  static let dotCommands = [
    "changes", "dump", "echo", "exit", "explain", "headers", "help", "import", "mode", "once",
    "open", "output", "quit", "read", "schema", "stats", "tables", "timing", "watch",
  ]
  static let clauses = [
    "AND", "BEGINSWITH", "CONTAINS", "ENDSWITH", "IN", "LIKE", "NOT", "OR", "asc", "by", "desc",
    "limit", "offset", "prefetch", "set", "sort", "where",
  ]
  /// Words after which a class name comes.
  private static let classIntroducers: Set<String> = [
    "fetch", "count", "sum", "min", "max", "avg", "insert", "update", "delete", "only", "is", "as",
    "schema", "import",
  ]

  /// The completion of `line` with the cursor at its end.
  func complete(_ line: String) -> Completion {
    let characters = Array(line)
    var start = characters.count
    while start > 0, Self.isNameCharacter(characters[start - 1]) { start -= 1 }
    let word = String(characters[start...])
    let statementStart = (characters[..<start].lastIndex(of: ";")).map { $0 + 1 } ?? 0
    let before = String(characters[statementStart..<start])
    let leading = before.drop { $0 == " " || $0 == "\t" }
    // `.read pa`: a file name, up to the cursor from the last space.
    if leading.hasPrefix("."), let command = Self.words(String(leading)).first,
      Self.fileCommands.contains(command)
    {
      let argument = leading.dropFirst(command.count + 1).drop { $0 == " " || $0 == "\t" }
      let typed = String(argument) + word
      if !argument.isEmpty || !word.isEmpty || leading.last == " ", !typed.contains(" ") {
        let candidates = files(matching: typed)
        // A file is followed by a space (the class of .import comes next); a directory is not.
        return Completion(
          start: characters.count - typed.count, candidates: candidates,
          addsSpace: candidates.first?.hasSuffix("/") == false)
      }
    }
    // `.sch` at the start of a statement: a dot-command.
    if leading == "." {
      return Completion(
        start: start, candidates: Self.matching(Self.dotCommands, word), addsSpace: true)
    }
    // `Class.na` or `trip.na`: the members of the class the path leads to.
    if characters[..<start].last == "." {
      let path = Self.path(endingAt: start - 1, in: characters)
      guard let members = resolve(path, context: contextClass(String(leading))) else {
        return Completion(start: start, candidates: [])
      }
      return Completion(start: start, candidates: Self.matching(members.names, word))
    }
    let words = Self.words(String(leading))
    if words.isEmpty, !leading.hasPrefix(".") {
      return Completion(
        start: start, candidates: Self.matching(Self.statements, word), addsSpace: true)
    }
    let classNames = classes.keys.sorted()
    if let previous = words.last?.lowercased(), Self.classIntroducers.contains(previous) {
      return Completion(
        start: start, candidates: Self.matching(classNames, word), addsSpace: true)
    }
    if let context = contextClass(String(leading)), let members = classes[context] {
      return Completion(
        start: start,
        candidates: Self.matching(members.names + Self.clauses + classNames, word))
    }
    return Completion(start: start, candidates: Self.matching(classNames + Self.clauses, word))
  }

  /// The files and directories whose path starts with `typed`, without the journal and lock
  /// file beside a store (`trips.mgs-journal`, `trips.mgs.lock`), which no command reads.
  private func files(matching typed: String) -> [String] {
    let slash = typed.lastIndex(of: "/")
    let directory = slash.map { String(typed[...$0]) } ?? ""
    let prefix = slash.map { String(typed[typed.index(after: $0)...]) } ?? typed
    let names = listDirectory(directory.isEmpty ? "." : directory)
    let present = Set(names)
    let companion = { (name: String) in
      for suffix in ["-journal", ".lock"] where name.hasSuffix(suffix) {
        if present.contains(String(name.dropLast(suffix.count))) { return true }
      }
      return false
    }
    return
      names
      .filter {
        $0.hasPrefix(prefix) && (prefix.hasPrefix(".") || !$0.hasPrefix(".")) && !companion($0)
      }
      .map { directory + $0 }.sorted()
  }

  /// The entries of `path` in the file system, directories marked with `/`.
  static func entries(_ path: String) -> [String] {
    let manager = FileManager.default
    let names = (try? manager.contentsOfDirectory(atPath: path)) ?? []
    return names.map { name in
      var isDirectory: ObjCBool = false
      let full = (path as NSString).appendingPathComponent(name)
      _ = manager.fileExists(atPath: full, isDirectory: &isDirectory)
      return isDirectory.boolValue ? name + "/" : name
    }
  }

  /// The first known class named in a statement's text.
  private func contextClass(_ statement: String) -> String? {
    Self.words(statement).first { classes[$0] != nil }
  }

  /// The members at the end of `path` (`Class`, `Class.rel`, `rel.rel`), from `context` when
  /// the first name is not a class.
  private func resolve(_ path: [String], context: String?) -> Members? {
    guard let first = path.first else { return nil }
    var current: Members
    var rest = path.dropFirst()
    if let members = classes[first] {
      current = members
    } else if let context, let members = classes[context] {
      current = members
      rest = path[...]
    } else {
      return nil
    }
    for name in rest {
      guard let destination = current.relationships.first(where: { $0.name == name })?.destination,
        let next = classes[destination] ?? codableFields?(destination)
      else { return nil }
      current = next
    }
    return current
  }

  /// The dotted names ending before the `.` at `dot`: `trip.owner` in `fetch X where trip.owner.`.
  private static func path(endingAt dot: Int, in characters: [Character]) -> [String] {
    var names: [String] = []
    var end = dot
    while true {
      var start = end
      while start > 0, isNameCharacter(characters[start - 1]) { start -= 1 }
      guard start < end else { break }
      names.insert(String(characters[start..<end]), at: 0)
      guard start > 0, characters[start - 1] == "." else { break }
      end = start - 1
    }
    return names
  }

  private static func words(_ text: String) -> [String] {
    text.split { !isNameCharacter($0) }.map(String.init)
  }

  private static func matching(_ words: [String], _ prefix: String) -> [String] {
    Array(Set(words.filter { $0.hasPrefix(prefix) })).sorted()
  }

  private static func isNameCharacter(_ character: Character) -> Bool {
    character.isLetter || character.isNumber || character == "_" || character == "@"
  }
}
