extension QueryIntegerWidth {
  /// Whether `value`, an integer of any width, is a value of the type.
  public func holds(_ value: ModelValue) -> Bool {
    switch value {
    case .int(let integer): range.contains(integer)
    case .uint(let integer): integer <= UInt64(range.upperBound)
    default: true
    }
  }

  /// Whether every value of the type is one of `other` (`nil`: 64 bits of the same sign).
  public func fits(in other: QueryIntegerWidth?) -> Bool {
    guard let other else { return true }
    return range.lowerBound >= other.range.lowerBound
      && range.upperBound <= other.range.upperBound
  }

  /// The storage type whose values the type narrows: ``ValueType/int`` for the signed
  /// types, ``ValueType/uint`` for the unsigned ones.
  public var valueType: ValueType { isSigned ? .int : .uint }
}

extension AttributeDescription {
  /// The Swift type a declaration names: `Int8` for an attribute of ``integerWidth``
  /// ``QueryIntegerWidth/int8``, `[UInt16]?` for an optional array of `UInt16`, `Float` for
  /// one that ``isFloat32``, else the storage type (`String`, `Int?`, `[Date]`).
  public var declaredTypeName: String {
    "\(Self.declaredName(valueType, integerWidth, isFloat32))\(isOptional ? "?" : "")"
  }

  private static func declaredName(
    _ type: ValueType, _ width: QueryIntegerWidth?, _ isFloat32: Bool
  ) -> String {
    switch (type, width) {
    case (.int, let width?), (.uint, let width?): width.rawValue
    case (.double, _) where isFloat32: "Float"
    case (.array(let element), _): "[\(declaredName(element, width, isFloat32))]"
    default: type.description
    }
  }

  /// Whether ``integerWidth`` narrows the attribute's integers: `nil`, or a signed width on
  /// ``ValueType/int`` (or an array of it), an unsigned one on ``ValueType/uint``.
  public var hasValidIntegerWidth: Bool {
    guard let integerWidth else { return true }
    var type = valueType
    while case .array(let element) = type { type = element }
    return type == integerWidth.valueType
  }

  /// The attribute's ``integerWidth`` when it is narrower than `previous`'s (a version of the
  /// same attribute), so that a value `previous` stored may not fit; `nil` when every such
  /// value fits.
  public func narrowedWidth(from previous: AttributeDescription) -> QueryIntegerWidth? {
    guard let width = integerWidth, previous.integerWidth.map({ !$0.fits(in: width) }) ?? true
    else { return nil }
    return width
  }

  /// Why `value` is no value of the attribute's declared integer type (``integerWidth``):
  /// `300 is out of the range of Int8 (-128...127)`, naming an array's first element out of
  /// range; `nil` when it is one, or the attribute has no narrower width.
  public func integerWidthProblem(_ value: ModelValue) -> String? {
    guard let integerWidth else { return nil }
    switch value {
    case .array(let elements):
      for (index, element) in elements.enumerated() where !integerWidth.holds(element) {
        return "element \(index): \(element) is out of the range of \(integerWidth.rawValue) "
          + "(\(integerWidth.range))"
      }
      return nil
    default:
      guard !integerWidth.holds(value) else { return nil }
      return "\(value) is out of the range of \(integerWidth.rawValue) (\(integerWidth.range))"
    }
  }
}
