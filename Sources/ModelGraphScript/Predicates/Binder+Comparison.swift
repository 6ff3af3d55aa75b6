import Foundation
import ModelGraphCore

extension Binder {
  /// A comparison with its operand types checked, quantifiers bound and constants converted to
  /// the type of the key path they are compared with.
  mutating func compare(_ comparison: Comparison) throws -> Bound {
    if let quantifier = comparison.quantifier {
      return try quantified(quantifier, comparison)
    }
    let (lhs, lhsType) = try bind(comparison.lhs)
    return try finishComparison(comparison, lhs, lhsType)
  }

  private mutating func finishComparison(
    _ comparison: Comparison, _ lhsIn: Bound, _ lhsType: StaticType
  ) throws -> Bound {
    var lhs = lhsIn
    var (rhs, rhsType) = try bindOperand(comparison.rhs)
    var options: String.CompareOptions = []
    if comparison.caseInsensitive { options.insert(.caseInsensitive) }
    if comparison.diacriticInsensitive { options.insert(.diacriticInsensitive) }
    let op = comparison.op
    let rhsLocation = comparison.rhs.location
    switch op {
    case .equal, .notEqual, .less, .lessOrEqual, .greater, .greaterOrEqual:
      (lhs, rhs) = try unify(lhs, lhsType, rhs, rhsType, comparison)
      if floatKeyPaths.contains(comparison.lhs.location) { rhs = Self.nearestFloat(rhs) }
      if floatKeyPaths.contains(rhsLocation) { lhs = Self.nearestFloat(lhs) }
      if op != .equal && op != .notEqual {
        for (type, location) in [(lhsType, comparison.lhs.location), (rhsType, rhsLocation)] {
          switch type {
          case .null: continue
          case .scalar(.bool), .scalar(.uuid), .scalar(.url), .scalar(.data), .scalar(.array),
            .object, .objects, .list:
            throw ScriptError("'\(op.rawValue)' cannot order \(type) values", at: location)
          default: continue
          }
        }
      }
      if !options.isEmpty, lhsType != .scalar(.string) {
        throw ScriptError(
          "[c] and [d] apply to strings, not \(lhsType)", at: comparison.operatorLocation)
      }
      return .compare(lhs, op, rhs, options: options, pattern: nil)
    case .beginsWith, .endsWith, .like, .matches:
      try requireString(lhsType, comparison.lhs.location, op)
      try requireString(rhsType, rhsLocation, op)
      var pattern: Pattern?
      if op == .like || op == .matches {
        guard case .constant(.string(let text)) = rhs else {
          throw ScriptError("\(op.rawValue) needs a string literal pattern", at: rhsLocation)
        }
        pattern = try Self.pattern(text, like: op == .like, options: options, at: rhsLocation)
      }
      return .compare(lhs, op, rhs, options: options, pattern: pattern)
    case .contains:
      if case .scalar(.string) = lhsType {
        try requireString(rhsType, rhsLocation, op)
        return .compare(lhs, op, rhs, options: options, pattern: nil)
      }
      try checkElement(of: lhsType, rhsType, comparison.lhs.location, rhsLocation)
      rhs = coerceConstant(rhs, toElementOf: lhsType)
      if floatKeyPaths.contains(comparison.lhs.location) { rhs = Self.nearestFloat(rhs) }
      return .compare(rhs, .in, lhs, options: options, pattern: nil)
    case .in:
      if case .scalar(.string) = rhsType {
        try requireString(lhsType, comparison.lhs.location, op)
        return .compare(rhs, .contains, lhs, options: options, pattern: nil)
      }
      try checkElement(of: rhsType, lhsType, rhsLocation, comparison.lhs.location)
      rhs = coerceList(rhs, to: lhsType)
      if floatKeyPaths.contains(comparison.lhs.location) { rhs = Self.nearestFloat(rhs) }
      if floatKeyPaths.contains(rhsLocation) { lhs = Self.nearestFloat(lhs) }
      return .compare(lhs, op, rhs, options: options, pattern: nil)
    case .between:
      guard case .list(let bounds) = rhs, bounds.count == 2 else {
        throw ScriptError(
          "BETWEEN needs a list of two values: BETWEEN {low, high}", at: rhsLocation)
      }
      guard lhsType.isNumeric || lhsType == .scalar(.string) || lhsType == .scalar(.date) else {
        throw ScriptError("BETWEEN cannot order \(lhsType) values", at: comparison.lhs.location)
      }
      let converted = bounds.map {
        let bound = coerceConstant($0, to: lhsType)
        return floatKeyPaths.contains(comparison.lhs.location) ? Self.nearestFloat(bound) : bound
      }
      for (bound, _) in zip(converted, bounds) {
        if case .constant(let value) = bound, !value.isNull,
          !Self.compatible(Self.type(of: value), lhsType)
        {
          throw ScriptError(
            "type mismatch: \(describe(comparison.lhs)) is \(lhsType), the bounds are \(Self.type(of: value))",
            at: rhsLocation)
        }
      }
      return .compare(lhs, .between, .list(converted), options: options, pattern: nil)
    }
  }

  private mutating func quantified(_ quantifier: Comparison.Quantifier, _ comparison: Comparison)
    throws -> Bound
  {
    var names: [(String, SourceLocation)] = []
    var base = comparison.lhs
    while case .member(let inner, let name) = base.kind {
      names.insert((name, base.location), at: 0)
      base = inner
    }
    var (bound, type) = try bind(base)
    var index = 0
    while index < names.count {
      if case .objects = type { break }
      if case .scalar(.array) = type { break }
      (bound, type) = try memberStep(bound, type, names[index].0, names[index].1)
      index += 1
    }
    let elementType: StaticType
    switch type {
    case .objects(let element): elementType = .object(element)
    case .scalar(.array(let element)): elementType = .scalar(element)
    default:
      throw ScriptError(
        "\(quantifier.rawValue) needs a key path through a to-many relationship or an array",
        at: comparison.lhs.location)
    }
    let variable = nextVariable
    nextVariable += 1
    var (rest, restType) = (Bound.variable(variable), elementType)
    for (name, location) in names[index...] {
      (rest, restType) = try memberStep(rest, restType, name, location)
    }
    let body = try finishComparison(comparison, rest, restType)
    return .quantified(quantifier, bound, variable: variable, body)
  }

  private mutating func memberStep(
    _ bound: Bound, _ type: StaticType, _ name: String, _ location: SourceLocation
  ) throws -> (Bound, StaticType) {
    switch type {
    case .object(let index):
      let entity = catalog.entities[index]
      if let slot = entity.attributeSlot(named: name) {
        if entity.attributes[slot].isFloat32 { floatKeyPaths.insert(location) }
        return (.attribute(bound, name), .scalar(entity.attributes[slot].valueType))
      }
      if let slot = entity.relationshipSlot(named: name) {
        let relationship = entity.relationships[slot]
        let destination = catalog.entity(named: relationship.destination)!.index
        return (
          .relationship(bound, name, isToMany: relationship.isToMany),
          relationship.isToMany ? .objects(destination) : .object(destination)
        )
      }
      throw ScriptError(
        "\(entity.name) has no attribute or relationship '\(name)'"
          + entity.missingMemberHint(name), at: location)
    default:
      throw ScriptError(
        "'\(name)' is reached through a second to-many step; use SUBQUERY", at: location)
    }
  }

  /// Equality and ordering operands: compatible types, constants converted to the other side's.
  private func unify(
    _ lhs: Bound, _ lhsType: StaticType, _ rhs: Bound, _ rhsType: StaticType,
    _ comparison: Comparison
  ) throws -> (Bound, Bound) {
    let left = coerceConstant(lhs, to: rhsType)
    let right = coerceConstant(rhs, to: lhsType)
    let newLeft = Self.constantType(left) ?? lhsType
    let newRight = Self.constantType(right) ?? rhsType
    guard Self.compatible(newLeft, newRight) else {
      throw ScriptError(
        "type mismatch: \(describe(comparison.lhs)) is \(lhsType), \(describe(comparison.rhs)) is"
          + " \(rhsType)", at: comparison.rhs.location)
    }
    return (left, right)
  }

  static func compatible(_ a: StaticType, _ b: StaticType) -> Bool {
    if a == .null || b == .null { return true }
    if a.isNumeric && b.isNumeric { return true }
    switch (a, b) {
    case (.object, .object): return true
    case (.scalar(let x), .scalar(let y)): return x == y
    default: return false
    }
  }

  private static func constantType(_ bound: Bound) -> StaticType? {
    if case .constant(let value) = bound { return type(of: value) }
    return nil
  }

  /// A `Double` constant (or a list's) as the nearest `Float`, as a Swift literal compared with
  /// a `Float` is; one beyond `Float`'s range stays as it is (no `Float` equals it).
  static func nearestFloat(_ bound: Bound) -> Bound {
    switch bound {
    case .constant(.double(let number)):
      let nearest = Float(number)
      guard nearest.isFinite || !number.isFinite else { return bound }
      return .constant(.double(Double(nearest)))
    case .list(let items):
      return .list(items.map(nearestFloat))
    default:
      return bound
    }
  }

  /// A constant converted to `type` when it is a scalar type the constant converts to.
  func coerceConstant(_ bound: Bound, to type: StaticType) -> Bound {
    guard case .constant(var value) = bound, case .scalar(let target) = type, !value.isNull else {
      return bound
    }
    // A literal past `Double`'s precision meets an `Int`, `UInt` or `Double` operand as the
    // nearest `Double`, as a Swift literal does; only a `Decimal` one keeps every digit.
    if case .decimal(let number) = value, [.int, .uint, .double].contains(target),
      let nearest = DecimalMath.double(number)
    {
      value = .double(nearest)
    }
    if case .double(let number) = value, target == .int || target == .uint,
      number != number.rounded()
    {
      return .constant(value)
    }
    return ValueCoercion.convert(value, to: target).map { .constant($0) } ?? .constant(value)
  }

  private func coerceConstant(_ bound: Bound, toElementOf collection: StaticType) -> Bound {
    if case .scalar(.array(let element)) = collection {
      return coerceConstant(bound, to: .scalar(element))
    }
    return bound
  }

  private func coerceList(_ bound: Bound, to element: StaticType) -> Bound {
    guard case .list(let items) = bound else { return bound }
    return .list(items.map { coerceConstant($0, to: element) })
  }

  private func checkElement(
    of collection: StaticType, _ element: StaticType, _ collectionLocation: SourceLocation,
    _ elementLocation: SourceLocation
  ) throws {
    switch collection {
    case .objects:
      guard case .object = element else {
        if element == .null { return }
        throw ScriptError(
          "a collection of objects holds objects, not \(element)", at: elementLocation)
      }
    case .scalar(.array(let type)):
      guard Self.compatible(.scalar(type), element) || element == .scalar(.string) else {
        throw ScriptError(
          "type mismatch: the array holds \(type), not \(element)", at: elementLocation)
      }
    case .list(let type):
      if let type, case .scalar = element, !Self.compatible(.scalar(type), element),
        !(type == .string && [.date, .uuid, .url].contains(element.valueType))
      {
        throw ScriptError(
          "type mismatch: the list holds \(type), not \(element)", at: collectionLocation)
      }
    default:
      throw ScriptError("expected a collection, not \(collection)", at: collectionLocation)
    }
  }

  private func requireString(
    _ type: StaticType, _ location: SourceLocation, _ op: Comparison.Operator
  )
    throws
  {
    guard type == .scalar(.string) || type == .null else {
      throw ScriptError("\(op.rawValue) needs strings, not \(type)", at: location)
    }
  }

  private func describe(_ expression: Expression) -> String {
    switch expression.kind {
    case .member(let base, let name):
      if case .this = base.kind { return name }
      return "\(describe(base)).\(name)"
    case .literal(let value): return value.description
    case .this: return "self"
    case .variable(let name): return "$\(name)"
    case .cast(let base, let name): return "(\(describe(base)) AS \(name))"
    case .count(let base): return "\(describe(base)).@count"
    case .arithmetic: return "\(expression)"
    default: return "the value"
    }
  }

  /// `text` without diacritics.
  static func fold(_ text: String) -> String {
    text.folding(options: .diacriticInsensitive, locale: nil)
  }

  /// The regular expression of a `LIKE` pattern (`*`, `?`) or a `MATCHES` one.
  static func pattern(
    _ text: String, like: Bool, options: String.CompareOptions, at location: SourceLocation
  ) throws -> Pattern {
    var source = options.contains(.diacriticInsensitive) ? Self.fold(text) : text
    if like {
      let text = source
      source = ""
      for character in text {
        switch character {
        case "*": source += ".*"
        case "?": source += "."
        default: source += NSRegularExpression.escapedPattern(for: String(character))
        }
      }
    }
    var regexOptions: NSRegularExpression.Options = [.dotMatchesLineSeparators]
    if options.contains(.caseInsensitive) { regexOptions.insert(.caseInsensitive) }
    do {
      return Pattern(try NSRegularExpression(pattern: source, options: regexOptions))
    } catch {
      throw ScriptError("invalid regular expression '\(text)'", at: location)
    }
  }
}

extension Binder {
  /// The right operand of a comparison; a bare word that names no property (`name == Rome`)
  /// is most likely text without its quotes, and the error says so.
  fileprivate mutating func bindOperand(_ expression: Expression) throws -> (Bound, StaticType) {
    do {
      return try bind(expression)
    } catch let error as ScriptError {
      guard case .member(let base, let name) = expression.kind, case .this = base.kind,
        error.message.hasSuffix("has no attribute or relationship '\(name)'")
      else { throw error }
      throw ScriptError(
        error.message + "; text is written in quotes: \"\(name)\"", at: error.location)
    }
  }
}
