extension AttributeDescription {
  /// Whether ``isFloat32`` narrows the attribute's values: `false`, or an attribute of
  /// ``ValueType/double`` (or an array of it) with no ``integerWidth``.
  public var hasValidFloatWidth: Bool {
    guard isFloat32 else { return true }
    var type = valueType
    while case .array(let element) = type { type = element }
    return type == .double && integerWidth == nil
  }

  /// Whether the attribute declares a type narrower than its storage type: an
  /// ``integerWidth`` or ``isFloat32``.
  public var hasNarrowerType: Bool { integerWidth != nil || isFloat32 }

  /// Whether a value `previous` (a version of the same attribute) stored may be no value of
  /// the attribute's declared type: its ``integerWidth`` is narrower, or it is ``isFloat32``
  /// and `previous` was not.
  public func narrowsValues(of previous: AttributeDescription) -> Bool {
    narrowedWidth(from: previous) != nil || (isFloat32 && !previous.isFloat32)
  }

  /// Why `value` is no `Float` value when the attribute is ``isFloat32``: `0.1 is no Float
  /// value (the nearest is 0.10000000149011612)`, naming an array's first such element; `nil`
  /// when it is one (NaN and the infinities are), or the attribute is not `Float`.
  public func floatWidthProblem(_ value: ModelValue) -> String? {
    guard isFloat32 else { return nil }
    switch value {
    case .array(let elements):
      for (index, element) in elements.enumerated() {
        if let problem = Self.float32Problem(element) { return "element \(index): \(problem)" }
      }
      return nil
    default:
      return Self.float32Problem(value)
    }
  }

  /// Why `value` is no value of the attribute's declared type (``integerWidthProblem(_:)``,
  /// ``floatWidthProblem(_:)``), or `nil`.
  public func widthProblem(_ value: ModelValue) -> String? {
    integerWidthProblem(value) ?? floatWidthProblem(value)
  }

  /// Why `value` (a `Double`) is no `Float` value, or `nil`.
  static func float32Problem(_ value: ModelValue) -> String? {
    guard case .double(let number) = value else { return nil }
    return float32Problem(number)
  }

  /// Why `number` is no `Float` value, or `nil`: out of `Float`'s range (a finite value that
  /// would become infinite) or between two `Float` values.
  static func float32Problem(_ number: Double) -> String? {
    let nearest = Float(number)
    if Double(nearest) == number || number.isNaN { return nil }
    if nearest.isInfinite {
      let largest = Double(Float.greatestFiniteMagnitude)
      return "\(number) is out of the range of Float (\(-largest)...\(largest))"
    }
    return "\(number) is no Float value (the nearest is \(Double(nearest)))"
  }
}
