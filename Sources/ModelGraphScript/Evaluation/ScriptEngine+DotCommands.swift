import ModelGraphCore

extension ScriptEngine {
  func dotCommand(_ name: String, _ arguments: String, at location: SourceLocation) throws {
    switch name {
    case "schema":
      output(
        try SchemaPrinter(schema: schema, catalog: catalog).text(
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
      output(stats().render(mode))
    case "help":
      output(Help.text)
    case "quit", "exit":
      if mayQuit(at: location) { quit() }
    default:
      throw ScriptError(
        "unknown dot-command '.\(name)'; expected .schema, .explain, .timing, .mode, .stats, .help"
          + " or .quit", at: location)
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
}

private func stride(of type: any ColumnValue.Type) -> Int {
  func measure<T>(_: T.Type) -> Int { MemoryLayout<T>.stride }
  return measure(type)
}

/// The `.help` text.
enum Help {
  static let text = """
    Statements (one per line; ';' also separates; clauses may continue on the next line):
      entity Name [: Parent] { name: Type[?] [unique] [index] [preserve] [= default]
                               rel: Class? | [Class] [inverse name] [delete cascade|nullify|deny|noAction] [min n] [max n]
                               unique(attribute, attribute, …) }
      [let $v =] insert Class { name: value, rel: $v | (Class where condition) | [$a, $b] }
      update Class|$v set name = expression, … [where condition]
      delete Class|$v [where condition]
      fetch [only] Class [where condition] [sort key [asc|desc], …] [limit n] [offset n] [prefetch rel, …]
      count [only] Class [where condition] [limit n] [offset n] | [by class|attribute|to-one]
      sum|min|max|avg [only] Class.attribute [where condition] [by class|attribute|to-one]
      save | rollback | begin | commit
      open "file.mgs" | load "file.mgs" | snapshot ["file.mgs"]
    Conditions use NSPredicate's format: == != < <= > >= BEGINSWITH ENDSWITH CONTAINS LIKE MATCHES
      (with [c] [d] [cd]), IN {…}, BETWEEN {a, b}, AND OR NOT, ANY/ALL/NONE rel.attr, rel.@count,
      SUBQUERY(rel, $x, condition).@count, key paths through relationships, self IS [ONLY] Class,
      (self AS Class).attribute. Dates: 2026-05-01 or 2026-05-01T09:30:00Z. Comments: -- text.
    Dot-commands: .schema [Class]  .explain fetch|count …  .timing on|off  .mode table|json|csv
      .stats  .help  .quit

    """
}
