import ModelGraphCore

extension Parser {
  /// `Name [: Parent] { member … }` after `entity`.
  mutating func parseEntity() throws -> EntityDeclaration {
    let (name, location) = try expectIdentifier("a class name after 'entity'")
    var declaration = EntityDeclaration(
      name: name, parent: nil, parentLocation: nil, members: [], location: location)
    if accept(symbol: ":") {
      let (parent, parentLocation) = try expectIdentifier("a parent class name after ':'")
      declaration.parent = parent
      declaration.parentLocation = parentLocation
    }
    try expect(symbol: "{", "to start the members of \(name)")
    skipNewlines()
    while !accept(symbol: "}") {
      if current.isKeyword("unique"), peek().isSymbol("(") {
        let location = current.location
        position += 2
        var names: [String] = []
        repeat {
          names.append(try expectIdentifier("an attribute name in unique(…)").0)
        } while accept(symbol: ",")
        try expect(symbol: ")", "to close unique(…)")
        declaration.uniqueConstraints.append((names, location))
      } else {
        declaration.members.append(try parseMember())
      }
      guard
        accept(symbol: ",") || accept(symbol: ";") || current.kind == .newline
          || current.isSymbol("}")
      else {
        throw ScriptError(
          "expected a member option, ',' or a new line, found \(current.display)",
          at: current.location)
      }
      skipNewlines()
    }
    return declaration
  }

  mutating func parseMember() throws -> MemberDeclaration {
    let (name, location) = try expectIdentifier("a member name (name: Type)")
    try expect(symbol: ":", "after the member name '\(name)'")
    let typeLocation = current.location
    let isArray = accept(symbol: "[")
    let (typeName, _) = try expectIdentifier("a type name")
    if isArray { try expect(symbol: "]", "to close the array type") }
    let isOptional = accept(symbol: "?")
    var member = MemberDeclaration(
      name: name, typeName: typeName, isArray: isArray, isOptional: isOptional, location: location,
      typeLocation: typeLocation)
    while true {
      let option = current
      if accept(keyword: "unique") {
        member.isUnique = true
      } else if accept(keyword: "index") || accept(keyword: "indexed") {
        member.isIndexed = true
      } else if accept(keyword: "preserve") || accept(keyword: "preserveValueOnDeletion") {
        member.preservesValueOnDeletion = true
      } else if accept(symbol: "=") {
        member.defaultValue = try parseValueExpression()
      } else if accept(keyword: "inverse") {
        (member.inverse, _) = try expectIdentifier("the inverse relationship's name")
      } else if accept(keyword: "delete") {
        let (rule, ruleLocation) = try expectIdentifier("a delete rule")
        guard
          let parsed = DeleteRule.allCases.first(where: {
            $0.rawValue.lowercased() == rule.lowercased()
          })
        else {
          throw ScriptError(
            "unknown delete rule '\(rule)'; expected cascade, nullify, deny or noAction",
            at: ruleLocation)
        }
        member.deleteRule = parsed
      } else if accept(keyword: "min") {
        member.minimumCount = try expectInteger("a minimum count")
      } else if accept(keyword: "max") {
        member.maximumCount = try expectInteger("a maximum count")
      } else if option.identifier != nil, peek().isSymbol(":") {
        throw ScriptError(
          "expected a new line or ',' before the next member '\(option.identifier!)'",
          at: option.location)
      } else {
        return member
      }
    }
  }
}
