public import ModelGraphCore

extension PersistentValue where Self: RawRepresentable, RawValue: PersistentValue {
  /// The raw value's storage type.
  public static var valueType: ValueType { RawValue.valueType }
  /// The raw value type's.
  public static var _integerWidth: QueryIntegerWidth? { RawValue._integerWidth }
  /// The raw value type's.
  public static var _isFloat32: Bool { RawValue._isFloat32 }

  /// The case with the stored raw value; a raw value no case has (only from a corrupt or
  /// migrated store) stops with a message naming the type and value.
  @inlinable public static func fromStored(_ stored: RawValue.Stored) -> Self {
    guard let value = Self(rawValue: RawValue.fromStored(stored)) else {
      fatalError("\(Self.self) has no case with raw value \(stored)")
    }
    return value
  }

  /// The raw value's storage representation.
  @inlinable public var stored: RawValue.Stored { rawValue.stored }

  /// A case, for key-path probes only: the first declared case.
  public static var probeValue: Self { rawValueProbe() }
}

extension RawRepresentable where RawValue: PersistentValue {
  /// The first declared case: through `CaseIterable`, the raw value's probe, or the zero tag.
  static func rawValueProbe() -> Self {
    if let first: Self = (Self.self as? any CaseIterable.Type).flatMap(firstCase) { return first }
    if let value = Self(rawValue: RawValue.probeValue) { return value }
    return zeroTagCase()
  }
}

private func firstCase<T>(_ type: any CaseIterable.Type) -> T? {
  func open<C: CaseIterable>(_: C.Type) -> T? { C.allCases.first as? T }
  return open(type)
}

/// The case whose tag is zero: an enum with raw values has no payloads, so the all-zero bit
/// pattern is its first declared case.
private func zeroTagCase<T>() -> T {
  require(MemoryLayout<T>.size <= 8, "\(T.self) is not a raw-value enum")
  return withUnsafeTemporaryAllocation(of: UInt64.self, capacity: 1) { buffer in
    buffer[0] = 0
    return UnsafeRawPointer(buffer.baseAddress!).load(as: T.self)
  }
}
