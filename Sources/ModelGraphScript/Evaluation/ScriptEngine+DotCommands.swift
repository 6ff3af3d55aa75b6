import Foundation
import ModelGraphCore

extension ScriptEngine {
  func dotCommand(_ name: String, _ arguments: String, at location: SourceLocation) throws {
    switch name {
    case "schema":
      output(
        try SchemaPrinter(schema: schema, catalog: catalog, shape: { self.compositeShape($0) })
          .text(
            only: arguments.isEmpty ? nil : arguments, at: location))
    case "timing":
      switch arguments.lowercased() {
      case "on": timing = true
      case "off": timing = false
      default: throw ScriptError(".timing takes on or off", at: location)
      }
    case "mode":
      guard let mode = OutputMode(rawValue: arguments.lowercased()) else {
        throw ScriptError(".mode takes table, json or csv", at: location)
      }
      self.mode = mode
    case "stats":
      emit(stats())
    case "help":
      output(Help.text)
    case "quit", "exit":
      if mayQuit(at: location) { quit() }
    case "display":
      try chooseDisplay(arguments, at: location)
    case "tables":
      let names = catalog.entities.map(\.name).sorted()
      output(names.isEmpty ? "" : names.joined(separator: "  ") + "\n")
    case "headers":
      showsHeaders = try onOff(arguments, ".headers", at: location)
    case "echo":
      echoes = try onOff(arguments, ".echo", at: location)
    case "output", "once":
      let files = try DotArguments.split(arguments, at: location)
      guard files.count <= 1 else {
        throw ScriptError(".\(name) takes one file name", at: location)
      }
      try redirect(to: files.first, once: name == "once", at: location)
    case "dump":
      guard arguments.isEmpty else { throw ScriptError(".dump takes no arguments", at: location) }
      output(try dump(at: location))
    case "read":
      let files = try DotArguments.split(arguments, at: location)
      guard files.count == 1 else { throw ScriptError(".read takes one file name", at: location) }
      try read(files[0], at: location)
    case "open":
      // As the `open` statement: refused with unsaved changes, locks the file (creating it
      // when missing), and releases the file open before.
      let files = try DotArguments.split(arguments, at: location)
      guard files.count == 1 else { throw ScriptError(".open takes one file name", at: location) }
      try checkNoAlteredSchema(at: location)
      try open(files[0], bind: true, at: location)
      alteredClasses = []
    case "changes":
      try changes(arguments, at: location)
    case "watch":
      try watchCommand(arguments, at: location)
    case "import":
      let words = try DotArguments.split(arguments, at: location)
      guard words.count == 2 else {
        throw ScriptError(".import takes a file and a class: .import trips.csv Trip", at: location)
      }
      try importFile(words[0], into: words[1], at: location)
    default:
      throw ScriptError(
        "unknown dot-command '.\(name)'"
          + (Suggestion.closest(to: name, among: Completer.dotCommands).map {
            " (did you mean '.\($0)'?)"
          } ?? "") + "; expected .schema, .tables, .explain, .dump, .import,"
          + " .open, .read, .output, .once, .mode, .headers, .display, .echo, .timing, .stats,"
          + " .changes, .watch, .help"
          + " or .quit",
        at: location)
    }
  }

  private func onOff(_ argument: String, _ command: String, at location: SourceLocation) throws
    -> Bool
  {
    switch argument.lowercased() {
    case "on": return true
    case "off": return false
    default: throw ScriptError("\(command) takes on or off", at: location)
    }
  }

  /// `.read FILE`: runs the file's statements here, as if typed.
  private func read(_ path: String, at location: SourceLocation) throws {
    guard let data = FileManager.default.contents(atPath: path) else {
      throw ScriptError("cannot read \(path): \(Self.whyUnreadable(path))", at: location)
    }
    guard readDepth < 16 else {
      throw ScriptError(
        ".read nests more than 16 files deep (does \(path) read itself?)", at: location)
    }
    guard let scriptReader else { return }
    readDepth += 1
    defer { readDepth -= 1 }
    guard scriptReader(data, path) else {
      throw ScriptError(".read \(path): a statement in it failed", at: location)
    }
  }

  /// Objects and estimated column memory per class.
  private func stats() -> ResultSet {
    var rows: [[ModelValue?]] = []
    for entity in catalog.entities {
      let table = session.table(entity.index)
      var perRow = MemoryLayout<UInt32>.stride
      for column in table.attributeColumns { perRow += stride(of: column.elementType) }
      for column in table.relationshipColumns { perRow += stride(of: column.elementType) }
      rows.append([
        .string(entity.name), .int(Int64(table.liveCount)), .int(Int64(table.rowCount)),
        .int(Int64(table.rowCount * perRow)),
      ])
    }
    return ResultSet(
      columns: ["class", "objects", "rows", "column bytes"], rows: rows, noun: ("class", "classes"))
  }
  /// Why `path` cannot be read, for messages.
  static func whyUnreadable(_ path: String) -> String {
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
      return "no such file"
    }
    return isDirectory.boolValue ? "it is a directory" : "permission denied"
  }
}

private func stride(of type: any ColumnValue.Type) -> Int {
  func measure<T>(_: T.Type) -> Int { MemoryLayout<T>.stride }
  return measure(type)
}

/// The `.help` text.
enum Help {
  static let text = """
    Statements (one per line; ';' also separates; clauses may continue on the next line):
      codable Name { field: Type[?], nested: {…}[?], list: [Type], … }   (a Codable type's shape)
      entity Name [: Parent] { name: Type[?] [unique] [index] [preserve] [= default]
                               rel: Class? | [Class] [inverse name] [delete cascade|nullify|deny|noAction] [min n] [max n]
                               unique(attribute, attribute, …) }
      [let $v =] insert Class { name: value, rel: $v | (Class where condition) | [$a, $b] }
      update Class|$v set name = expression, … [where condition]
      delete Class|$v [where condition]
      fetch [only] Class [where condition] [sort key [asc|desc], …] [limit n] [offset n] [prefetch rel, …]
      fetch [only] Class.column, column, … [where …] [sort …] [limit n] [offset n]   (columns: trip.name, rel.@count, a * b)
      count [only] Class [where condition] [limit n] [offset n] | [by class|attribute|to-one|trip.name]
      sum|min|max|avg [only] Class.attribute [where condition] [by class|attribute|to-one|trip.name]
      alter entity Class add name: Type[?] [= default] [index] | drop name | rename old to new
      save | rollback | begin | commit
      open "file.mgs" | load "file.mgs" | snapshot ["file.mgs"]
    Conditions use NSPredicate's format: == != < <= > >= BEGINSWITH ENDSWITH CONTAINS LIKE MATCHES
      (with [c] [d] [cd]), IN {…}, BETWEEN {a, b}, AND OR NOT, ANY/ALL/NONE rel.attr, rel.@count,
      SUBQUERY(rel, $x, condition).@count, key paths through relationships, self IS [ONLY] Class,
      (self AS Class).attribute. Dates: 2026-05-01 or 2026-05-01T09:30:00Z, now(), today() (UTC),
      with + or - seconds: now() - 7 days, startDate + 3 days < endDate (seconds, minutes, hours,
      days, weeks); endDate - startDate is seconds. A Codable value: {field: value, …}.
      Comments: -- text.
    Dot-commands: .schema [Class]  .tables  .explain fetch|count …  .dump  .read FILE  .open FILE
      .import FILE Class (CSV with a header row, or a JSON array)  .output [FILE]  .once FILE
      .mode table|json|csv  .headers on|off  .display Class attribute|none  .echo on|off
      .timing on|off  .stats  .help  .quit
      .changes [since VERSION]  the saved changes after VERSION (else since the last .changes)
      .watch fetch …  prints the results, and again whenever a save changes them
      .watch  lists the watches;  .watch off  ends them
    Related objects show as Trip/0.0 (Lisbon) in tables: the .display attribute, else the first
    unique String attribute, else name or title.
    Changes stay unsaved until save; .quit with unsaved changes asks again in the REPL.
    REPL keys: Tab completes, Ctrl-R searches history (~/.modelgraph_history), Ctrl-A/E, Alt-b/f,
      Ctrl-W, Alt-d, Ctrl-K, Ctrl-U, Ctrl-Y.

    """

}
