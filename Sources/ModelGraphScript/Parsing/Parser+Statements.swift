extension Parser {
  mutating func parseStatement() throws -> Statement {
    let start = current
    let location = start.location
    if start.isSymbol("."), let name = peek().identifier, peek().location.line == location.line {
      position += 2
      if name == "explain" {
        let query = try parseExplained()
        return Statement(kind: .explain(query), location: location)
      }
      if name == "watch", accept(keyword: "fetch") {
        return Statement(kind: .watch(try parseFetch()), location: location)
      }
      let arguments = restOfLine(after: tokens[position - 1])
      while current.kind != .newline && current.kind != .end { position += 1 }
      return Statement(kind: .dotCommand(name, arguments), location: location)
    }
    guard let word = start.identifier?.lowercased() else {
      throw ScriptError("expected a statement, found \(start.display)", at: location)
    }
    if ["help", "quit", "exit"].contains(word) {
      // As in psql: understood alone on a line; with more after it, a pointer to the dot-command.
      position += 1
      guard current.kind == .newline || current.isSymbol(";") || current.kind == .end else {
        throw ScriptError("'\(word)' is the dot-command .\(word); write .\(word)", at: location)
      }
      return Statement(kind: .dotCommand(word, ""), location: location)
    }
    let kind: Statement.Kind
    switch word {
    case "entity":
      position += 1
      kind = .entity(try parseEntity())
    case "alter":
      position += 1
      kind = .alter(try parseAlter())
    case "codable":
      position += 1
      let (name, _) = try expectIdentifier("a type name after 'codable'")
      guard current.isSymbol("{") else {
        throw ScriptError("expected '{' to start the fields of \(name)", at: current.location)
      }
      kind = .codable(name, try parseCodableShape())
    case "let":
      position += 1
      let name: String
      if case .variable(let variable) = current.kind {
        name = variable
        position += 1
      } else {
        (name, _) = try expectIdentifier("a variable name")
      }
      try expect(symbol: "=", "after the variable name")
      guard accept(keyword: "insert") else {
        throw ScriptError("expected 'insert' after 'let \(name) ='", at: current.location)
      }
      var insert = try parseInsert()
      insert.variable = name
      kind = .insert(insert)
    case "insert":
      position += 1
      kind = .insert(try parseInsert())
    case "update":
      position += 1
      kind = .update(try parseUpdate())
    case "delete":
      position += 1
      kind = .delete(DeleteStatement(target: try parseTarget(clauses: ["where"])))
    case "fetch":
      position += 1
      kind = .fetch(try parseFetch())
    case "count", "sum", "min", "max", "avg":
      position += 1
      kind = .aggregate(try parseAggregate(AggregateStatement.Function(rawValue: word)!))
    case "save":
      position += 1
      kind = .save
    case "rollback":
      position += 1
      kind = .rollback
    case "begin":
      position += 1
      kind = .begin
    case "commit":
      position += 1
      kind = .commit
    case "open":
      position += 1
      kind = .open(try expectString("a snapshot file path"))
    case "load":
      position += 1
      kind = .load(try expectString("a snapshot file path"))
    case "snapshot":
      position += 1
      if case .literal(.string(let path)) = current.kind {
        position += 1
        kind = .snapshot(path)
      } else {
        kind = .snapshot(nil)
      }
    default:
      throw ScriptError(
        "unknown statement '\(start.identifier!)'; expected entity, alter, insert, update, delete,"
          + " fetch, count, sum, min, max, avg, save, rollback, begin, commit, open, load, snapshot"
          + " or a dot-command", at: location)
    }
    return Statement(kind: kind, location: location)
  }

  /// `entity Name add member | drop name | rename old to new` after `alter`.
  private mutating func parseAlter() throws -> AlterStatement {
    guard accept(keyword: "entity") else {
      throw ScriptError(
        "expected 'entity' after 'alter', found \(current.display)", at: current.location)
    }
    let (entity, entityLocation) = try expectIdentifier("a class name after 'alter entity'")
    let change: AlterStatement.Change
    if accept(keyword: "add") {
      change = .add(try parseMember())
    } else if accept(keyword: "drop") {
      let (name, location) = try expectIdentifier("a property name after 'drop'")
      change = .drop(name, location)
    } else if accept(keyword: "rename") {
      let (old, location) = try expectIdentifier("a property name after 'rename'")
      guard accept(keyword: "to") else {
        throw ScriptError(
          "expected 'to' and the new name after 'rename \(old)'", at: current.location)
      }
      let (new, _) = try expectIdentifier("the new name after 'to'")
      change = .rename(old, new, location)
    } else {
      throw ScriptError(
        "expected add, drop or rename after 'alter entity \(entity)', found \(current.display)",
        at: current.location)
    }
    return AlterStatement(entity: entity, entityLocation: entityLocation, change: change)
  }

  private mutating func parseExplained() throws -> QueryStatement {
    if accept(keyword: "fetch") {
      return try parseQuery(clauses: ["where", "sort", "limit", "offset", "prefetch"])
    }
    if accept(keyword: "count") {
      return try parseQuery(clauses: ["where", "limit", "offset"])
    }
    throw ScriptError("expected 'fetch' or 'count' after .explain", at: current.location)
  }

  private mutating func parseInsert() throws -> InsertStatement {
    let (entity, entityLocation) = try expectIdentifier("a class name after 'insert'")
    var values: [(name: String, value: Expression, location: SourceLocation)] = []
    if accept(symbol: "{") {
      skipNewlines()
      while !accept(symbol: "}") {
        let (name, location) = try expectIdentifier("an attribute or relationship name")
        try checkNoPath(after: name)
        try expect(symbol: ":", "after '\(name)'")
        let value = try parseValueExpression()
        values.append((name, value, location))
        skipNewlines()
        if accept(symbol: ",") || accept(symbol: ";") {
          skipNewlines()
        } else if !current.isSymbol("}") {
          throw ScriptError(
            "expected ',' or '}' after the value of '\(name)', found \(current.display)",
            at: current.location)
        }
      }
    }
    return InsertStatement(
      variable: nil, entity: entity, entityLocation: entityLocation, values: values)
  }

  /// Throws at a `.` after the property name of an assignment (`place.city = …`): only whole
  /// properties are assigned.
  private func checkNoPath(after name: String) throws {
    guard current.isSymbol(".") else { return }
    throw ScriptError(
      "only a whole property is assigned, not '\(name).…': give a Codable value whole"
        + " (\(name): {field: value, …}), and change a related object with its own update",
      at: current.location)
  }

  private mutating func parseUpdate() throws -> UpdateStatement {
    let target = try parseTarget(clauses: [])
    continueClause(["set"])
    guard accept(keyword: "set") else {
      throw ScriptError("expected 'set' in update, found \(current.display)", at: current.location)
    }
    var assignments: [(name: String, value: Expression, location: SourceLocation)] = []
    repeat {
      let (name, location) = try expectIdentifier("an attribute or relationship name")
      try checkNoPath(after: name)
      try expect(symbol: "=", "after '\(name)'")
      assignments.append((name, try parseValueExpression(), location))
    } while accept(symbol: ",")
    var result = UpdateStatement(target: target, assignments: assignments)
    if case .query(var query) = target {
      continueClause(["where"])
      if accept(keyword: "where") { query.condition = try parsePredicate() }
      result.target = .query(query)
    }
    return result
  }

  private mutating func parseTarget(clauses: [String]) throws -> Target {
    if case .variable(let name) = current.kind {
      let location = current.location
      position += 1
      return .variable(name, location)
    }
    return .query(try parseQuery(clauses: clauses))
  }

  /// `fetch [only] Class [.column, column, …] clauses`.
  private mutating func parseFetch() throws -> QueryStatement {
    let isExact = accept(keyword: "only")
    let (entity, entityLocation) = try expectIdentifier("a class name")
    var query = QueryStatement(entity: entity, entityLocation: entityLocation, isExact: isExact)
    if accept(symbol: ".") {
      repeat {
        query.columns.append(try parseValueExpression())
      } while accept(symbol: ",")
    }
    try parseClauses(&query, ["where", "sort", "limit", "offset", "prefetch"])
    return query
  }

  mutating func parseQuery(clauses: [String]) throws -> QueryStatement {
    let isExact = accept(keyword: "only")
    let (entity, entityLocation) = try expectIdentifier("a class name")
    var query = QueryStatement(entity: entity, entityLocation: entityLocation, isExact: isExact)
    try parseClauses(&query, clauses)
    return query
  }

  mutating func parseClauses(_ query: inout QueryStatement, _ clauses: [String]) throws {
    while true {
      continueClause(clauses)
      if clauses.contains("where"), accept(keyword: "where") {
        query.condition = try parsePredicate()
      } else if clauses.contains("sort"), accept(keyword: "sort") {
        _ = accept(keyword: "by")
        repeat {
          let path = try parseValueExpression()
          var ascending = true
          if accept(keyword: "desc") || accept(keyword: "descending") {
            ascending = false
          } else {
            _ = accept(keyword: "asc") || accept(keyword: "ascending")
          }
          query.sort.append((path, ascending))
        } while accept(symbol: ",")
      } else if clauses.contains("limit"), accept(keyword: "limit") {
        query.limit = try expectInteger("a limit")
      } else if clauses.contains("offset"), accept(keyword: "offset") {
        query.offset = try expectInteger("an offset")
      } else if clauses.contains("prefetch"), accept(keyword: "prefetch") {
        repeat {
          let (name, location) = try expectIdentifier("a relationship name")
          query.prefetch.append((name, location))
        } while accept(symbol: ",")
      } else {
        return
      }
    }
  }

  private mutating func parseAggregate(_ function: AggregateStatement.Function) throws
    -> AggregateStatement
  {
    let isExact = accept(keyword: "only")
    let (entity, entityLocation) = try expectIdentifier("a class name")
    var query = QueryStatement(entity: entity, entityLocation: entityLocation, isExact: isExact)
    var attribute: (name: String, location: SourceLocation)?
    if function != .count {
      try expect(
        symbol: ".", "and an attribute after the class name (\(function.rawValue) Trip.budget)")
      let (name, location) = try expectIdentifier("an attribute name")
      attribute = (name, location)
    }
    try parseClauses(&query, function == .count ? ["where", "limit", "offset"] : ["where"])
    var groupBy: (name: String, location: SourceLocation)?
    continueClause(["by"])
    if current.isKeyword("by") {
      let byLocation = current.location
      position += 1
      guard query.limit == nil, query.offset == nil else {
        throw ScriptError("limit and offset apply to a count without 'by'", at: byLocation)
      }
      var (name, location) = try expectIdentifier("'class' or an attribute name after 'by'")
      // A path through to-one relationships: `by trip.owner.name`.
      while accept(symbol: ".") {
        name += "." + (try expectIdentifier("a property name after '.'")).0
      }
      groupBy = (name, location)
    }
    return AggregateStatement(
      function: function, query: query, attribute: attribute, groupBy: groupBy)
  }
}
