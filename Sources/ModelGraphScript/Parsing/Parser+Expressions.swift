import Foundation
import ModelGraphCore

/// Words that end a key path: NSPredicate's operators and the statements' clause keywords.
private let reservedWords: Set<String> = [
  "and", "or", "not", "in", "between", "beginswith", "endswith", "contains", "like", "matches",
  "any", "all", "none", "some", "is", "as", "only", "where", "sort", "limit", "offset",
  "prefetch", "by", "set", "asc", "desc", "ascending", "descending",
]

extension Parser {
  /// A condition in NSPredicate format syntax.
  mutating func parsePredicate() throws -> Expression {
    try parseOr()
  }

  /// A value: arithmetic over key paths and literals (a condition is a value too).
  mutating func parseValueExpression() throws -> Expression {
    try parseOr()
  }

  private mutating func parseOr() throws -> Expression {
    let first = try parseAnd()
    var operands = [first]
    while accept(keyword: "or") || accept(symbol: "||") { operands.append(try parseAnd()) }
    return operands.count == 1 ? first : try node(.or(operands), at: first.location)
  }

  private mutating func parseAnd() throws -> Expression {
    let first = try parseNot()
    var operands = [first]
    while accept(keyword: "and") || accept(symbol: "&&") { operands.append(try parseNot()) }
    return operands.count == 1 ? first : try node(.and(operands), at: first.location)
  }

  private mutating func parseNot() throws -> Expression {
    let location = current.location
    if accept(keyword: "not") || accept(symbol: "!") {
      try enter(at: location)
      defer { nesting -= 1 }
      return try node(.not(try parseNot()), at: location)
    }
    return try parseComparison()
  }

  private mutating func parseComparison() throws -> Expression {
    let start = current.location
    var quantifier: Comparison.Quantifier?
    for word in ["any", "some", "all", "none"] where current.isKeyword(word) {
      position += 1
      quantifier = word == "some" ? .any : Comparison.Quantifier(rawValue: word.uppercased())
      break
    }
    let lhs = try parseAdditive()
    if quantifier == nil, current.isKeyword("is") {
      position += 1
      let isExact = accept(keyword: "only")
      let (entity, _) = try expectIdentifier("a class name after IS")
      return try node(.typeTest(lhs, entity, isExact: isExact), at: start)
    }
    var negated = false
    if current.isKeyword("not"),
      ["in", "between", "like", "matches", "contains", "beginswith", "endswith"]
        .contains(where: { peek().isKeyword($0) })
    {
      position += 1
      negated = true
    }
    let operatorLocation = current.location
    guard let op = comparisonOperator() else {
      if let quantifier {
        throw ScriptError(
          "expected a comparison after \(quantifier.rawValue) and its key path",
          at: current.location)
      }
      return lhs
    }
    var caseInsensitive = false
    var diacriticInsensitive = false
    if current.isSymbol("["), let options = peek().identifier, peek(2).isSymbol("]"),
      peek().location.column == current.location.column + 1
    {
      for option in options.lowercased() {
        switch option {
        case "c": caseInsensitive = true
        case "d": diacriticInsensitive = true
        default:
          throw ScriptError(
            "unknown comparison option '\(option)'; expected c, d or cd", at: peek().location)
        }
      }
      position += 3
    }
    let rhs = try parseAdditive()
    let comparison = Comparison(
      lhs: lhs, op: op, rhs: rhs, caseInsensitive: caseInsensitive,
      diacriticInsensitive: diacriticInsensitive, quantifier: quantifier,
      operatorLocation: operatorLocation)
    let result = try node(.compare(comparison), at: start)
    return negated ? try node(.not(result), at: start) : result
  }

  private mutating func comparisonOperator() -> Comparison.Operator? {
    let symbols: [String: Comparison.Operator] = [
      "==": .equal, "=": .equal, "!=": .notEqual, "<": .less, "<=": .lessOrEqual,
      ">": .greater, ">=": .greaterOrEqual,
    ]
    if case .symbol(let text) = current.kind, let op = symbols[text] {
      position += 1
      return op
    }
    if let word = current.identifier?.uppercased(), let op = Comparison.Operator(rawValue: word) {
      position += 1
      return op
    }
    return nil
  }

  private mutating func parseAdditive() throws -> Expression {
    var result = try parseMultiplicative()
    while true {
      let op: QueryArithmeticOperator
      if current.isSymbol("+") {
        op = .add
      } else if current.isSymbol("-") {
        op = .subtract
      } else {
        return result
      }
      position += 1
      result = try node(.arithmetic(result, op, try parseMultiplicative()), at: result.location)
    }
  }

  private mutating func parseMultiplicative() throws -> Expression {
    var result = try parseUnary()
    while true {
      let op: QueryArithmeticOperator
      if current.isSymbol("*") {
        op = .multiply
      } else if current.isSymbol("/") {
        op = .divide
      } else if current.isSymbol("%") {
        op = .remainder
      } else {
        return result
      }
      position += 1
      result = try node(.arithmetic(result, op, try parseUnary()), at: result.location)
    }
  }

  private mutating func parseUnary() throws -> Expression {
    let location = current.location
    if accept(symbol: "-") {
      try enter(at: location)
      defer { nesting -= 1 }
      // A literal past `Int64.max` after a minus: `Int64.min`, or a `Decimal`'s value.
      if case .literal(.uint(let magnitude)) = current.kind {
        position += 1
        guard magnitude == UInt64(Int64.max) + 1 else {
          return try node(.literal(.decimal(-Decimal(magnitude))), at: location)
        }
        return try node(.literal(.int(.min)), at: location)
      }
      let operand = try parseUnary()
      var negated: Expression
      // `-Int64.min` overflows: evaluated, it is reported as an overflow.
      if case .literal(.int(let value)) = operand.kind, value != .min {
        negated = try node(.literal(.int(-value)), at: location)
      } else if case .literal(.double(let value)) = operand.kind {
        negated = try node(.literal(.double(-value)), at: location)
      } else if case .literal(.decimal(let value)) = operand.kind {
        negated = try node(.literal(.decimal(-value)), at: location)
      } else {
        return try node(.negate(operand), at: location)
      }
      negated.spelling = operand.spelling.map {
        $0.hasPrefix("-") ? String($0.dropFirst()) : "-" + $0
      }
      return negated
    }
    return try parsePostfix()
  }

  private mutating func parsePostfix() throws -> Expression {
    var result = try parsePrimary()
    while current.isSymbol(".") {
      position += 1
      if accept(symbol: "@") {
        let (name, location) = try expectIdentifier("an operator after '@'")
        guard name.lowercased() == "count" else {
          throw ScriptError(
            "unsupported collection operator '@\(name)'; only @count is supported (use the"
              + " aggregate statements sum, min, max, avg)", at: location)
        }
        result = try node(.count(result), at: result.location)
      } else {
        let (name, location) = try expectIdentifier("a property name after '.'")
        result = try node(.member(result, name), at: location)
      }
    }
    return result
  }

  private mutating func parsePrimary() throws -> Expression {
    let token = current
    let location = token.location
    let nests =
      token.isSymbol("{") || token.isSymbol("[") || token.isSymbol("(")
      || token.isKeyword("subquery")
    if nests { try enter(at: location) }
    defer { if nests { nesting -= 1 } }
    switch token.kind {
    case .literal(let value):
      position += 1
      // `7 days`: a number of seconds, for date arithmetic.
      if let unit = current.identifier.flatMap({ Self.durationUnits[$0.lowercased()] }),
        current.location.line == location.line, let number = Arithmetic.double(value)
      {
        position += 1
        return try node(.literal(.double(number * unit)), at: location)
      }
      if let unit = current.identifier?.lowercased(),
        ["month", "months", "year", "years"].contains(unit),
        current.location.line == location.line
      {
        throw ScriptError(
          "\(unit) is not a duration the runner takes: months and years have no fixed number of"
            + " seconds; write days or weeks (30 days, 52 weeks)", at: current.location)
      }
      var literal = try node(.literal(value), at: location)
      literal.spelling = token.spelling
      return literal
    case .variable(let name):
      position += 1
      return try node(.variable(name), at: location)
    case .symbol("{"), .symbol("["):
      let closing = token.isSymbol("{") ? "}" : "]"
      position += 1
      skipNewlines()
      if token.isSymbol("{"), peek().isSymbol(":"), current.identifier != nil || current.isString {
        return try node(.object(try parseObjectFields()), at: location)
      }
      var elements: [Expression] = []
      while !accept(symbol: closing) {
        elements.append(try parseAdditive())
        skipNewlines()
        if !accept(symbol: ",") && !current.isSymbol(closing) {
          throw ScriptError(
            "expected ',' or '\(closing)' in the list, found \(current.display)",
            at: current.location)
        }
        skipNewlines()
      }
      return try node(.list(elements), at: location)
    case .symbol("("):
      position += 1
      skipNewlines()
      if let entity = current.identifier, peek().isKeyword("where") {
        position += 2
        let condition = try parsePredicate()
        skipNewlines()
        try expect(symbol: ")", "to close the query")
        return try node(.query(entity, condition), at: location)
      }
      let inner = try parsePredicate()
      skipNewlines()
      if accept(keyword: "as") {
        let (entity, _) = try expectIdentifier("a class name after AS")
        try expect(symbol: ")", "after the cast")
        return try node(.cast(inner, entity), at: location)
      }
      try expect(symbol: ")", "to close the parenthesis")
      return inner
    case .identifier(let name):
      let lower = name.lowercased()
      switch lower {
      case "true", "yes", "truepredicate":
        position += 1
        return try node(.literal(.bool(true)), at: location)
      case "false", "no", "falsepredicate":
        position += 1
        return try node(.literal(.bool(false)), at: location)
      case "nil", "null":
        position += 1
        return try node(.literal(.null), at: location)
      case "self":
        position += 1
        return try node(.this, at: location)
      case _
      where (lower == "now" || lower == "today") && peek().isSymbol("(")
        && peek(2).isSymbol(")"):
        // Read when the statement is parsed, just before it runs.
        position += 3
        let now = Date()
        let date = lower == "now" ? now : Self.startOfDay(now)
        return try node(.literal(.date(date)), at: location)
      case "subquery":
        position += 1
        try expect(symbol: "(", "after SUBQUERY")
        let collection = try parseAdditive()
        try expect(symbol: ",", "after the SUBQUERY collection")
        guard case .variable(let variable) = current.kind else {
          throw ScriptError(
            "expected a $variable as SUBQUERY's second argument", at: current.location)
        }
        position += 1
        try expect(symbol: ",", "after the SUBQUERY variable")
        let condition = try parsePredicate()
        try expect(symbol: ")", "to close SUBQUERY")
        return try node(.subquery(collection, variable, condition), at: location)
      default:
        guard !reservedWords.contains(lower) else {
          throw ScriptError("expected a value, found the keyword '\(name)'", at: location)
        }
        position += 1
        return try node(.member(Expression(.this, at: location), name), at: location)
      }
    default:
      throw ScriptError("expected a value, found \(token.display)", at: location)
    }
  }
}

extension Parser {
  /// The `name: value` pairs of a `{…}` literal, after its `{`, through its `}`; a name is an
  /// identifier or a string.
  private mutating func parseObjectFields() throws -> [ObjectField] {
    var fields: [ObjectField] = []
    while !accept(symbol: "}") {
      let location = current.location
      let name: String
      if let identifier = current.identifier {
        name = identifier
      } else if case .literal(.string(let text)) = current.kind {
        name = text
      } else {
        throw ScriptError(
          "expected a field name in the {field: value} literal, found \(current.display)",
          at: location)
      }
      position += 1
      try expect(symbol: ":", "after the field name \(name)")
      skipNewlines()
      fields.append(ObjectField(name: name, at: location, value: try parseAdditive()))
      skipNewlines()
      if !accept(symbol: ",") && !current.isSymbol("}") {
        throw ScriptError(
          "expected ',' or '}' in the {field: value} literal, found \(current.display)",
          at: current.location)
      }
      skipNewlines()
    }
    return fields
  }

  /// Seconds per unit of a duration literal (`7 days`).
  static let durationUnits: [String: Double] = [
    "second": 1, "seconds": 1, "minute": 60, "minutes": 60, "hour": 3600, "hours": 3600,
    "day": 86400, "days": 86400, "week": 604_800, "weeks": 604_800,
  ]

  /// Midnight UTC of the day of `date`.
  static func startOfDay(_ date: Date) -> Date {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = TimeZone(identifier: "UTC")!
    return calendar.startOfDay(for: date)
  }
}
