public import Foundation

/// A type the engine stores unboxed in a column: the closed set of storage representations.
///
/// Conformances: `Bool`, `Int64`, `UInt64`, `Double`, `String`, `Date`, `UUID`, `URL`, `Data`,
/// `Decimal`, and `Optional` and `Array` of any of them.
public protocol ColumnValue: Sendable, Hashable {
  /// The value a new row holds before anything is set; it never reaches a user.
  static var placeholder: Self { get }
  /// The value boxed for the dynamic API.
  var modelValue: ModelValue { get }
  /// Unboxes a dynamic value, or returns `nil` when its type does not match.
  init?(modelValue: ModelValue)
  /// Writes the value into `row` of `column`, which must be a column of `Self`.
  ///
  /// A requirement (not only an extension method) so that each conformance gets code
  /// specialized for its type, which a boxed value calls without generic metadata lookups.
  func store(in column: AnyColumn, row: Int)
  /// Resets `row` of `column`, which must be a column of `Self`, to the placeholder.
  ///
  /// A requirement for the same reason as ``store(in:row:)``: deleting objects clears every
  /// column of their rows, through code specialized for each column's type.
  static func clear(row: Int, in column: AnyColumn)
}

extension Bool: ColumnValue {
  /// `false`.
  public static var placeholder: Bool { false }
  /// The value as ``ModelValue/bool(_:)``.
  public var modelValue: ModelValue { .bool(self) }
  /// Unboxes ``ModelValue/bool(_:)``.
  public init?(modelValue: ModelValue) {
    guard case .bool(let value) = modelValue else { return nil }
    self = value
  }
}

extension Int64: ColumnValue {
  /// Zero.
  public static var placeholder: Int64 { 0 }
  /// The value as ``ModelValue/int(_:)``.
  public var modelValue: ModelValue { .int(self) }
  /// Unboxes ``ModelValue/int(_:)``, or a ``ModelValue/uint(_:)`` that fits.
  public init?(modelValue: ModelValue) {
    switch modelValue {
    case .int(let value): self = value
    case .uint(let value):
      guard let value = Int64(exactly: value) else { return nil }
      self = value
    default: return nil
    }
  }
}

extension UInt64: ColumnValue {
  /// Zero.
  public static var placeholder: UInt64 { 0 }
  /// The value as ``ModelValue/uint(_:)``.
  public var modelValue: ModelValue { .uint(self) }
  /// Unboxes ``ModelValue/uint(_:)``, or a non-negative ``ModelValue/int(_:)``.
  public init?(modelValue: ModelValue) {
    switch modelValue {
    case .uint(let value): self = value
    case .int(let value):
      guard let value = UInt64(exactly: value) else { return nil }
      self = value
    default: return nil
    }
  }
}

extension Double: ColumnValue {
  /// Zero.
  public static var placeholder: Double { 0 }
  /// The value as ``ModelValue/double(_:)``.
  public var modelValue: ModelValue { .double(self) }
  /// Unboxes ``ModelValue/double(_:)`` or an integer.
  public init?(modelValue: ModelValue) {
    switch modelValue {
    case .double(let value): self = value
    case .int(let value): self = Double(value)
    case .uint(let value): self = Double(value)
    default: return nil
    }
  }
}

extension String: ColumnValue {
  /// The empty string.
  public static var placeholder: String { "" }
  /// The value as ``ModelValue/string(_:)``.
  public var modelValue: ModelValue { .string(self) }
  /// Unboxes ``ModelValue/string(_:)``.
  public init?(modelValue: ModelValue) {
    guard case .string(let value) = modelValue else { return nil }
    self = value
  }
}

extension Date: ColumnValue {
  /// The reference date.
  public static var placeholder: Date { Date(timeIntervalSinceReferenceDate: 0) }
  /// The value as ``ModelValue/date(_:)``.
  public var modelValue: ModelValue { .date(self) }
  /// Unboxes ``ModelValue/date(_:)``.
  public init?(modelValue: ModelValue) {
    guard case .date(let value) = modelValue else { return nil }
    self = value
  }
}

extension UUID: ColumnValue {
  /// The all-zero UUID.
  public static var placeholder: UUID {
    UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0))
  }
  /// The value as ``ModelValue/uuid(_:)``.
  public var modelValue: ModelValue { .uuid(self) }
  /// Unboxes ``ModelValue/uuid(_:)``.
  public init?(modelValue: ModelValue) {
    guard case .uuid(let value) = modelValue else { return nil }
    self = value
  }
}

extension URL: ColumnValue {
  /// `about:blank`.
  public static var placeholder: URL { URL(string: "about:blank")! }
  /// The value as ``ModelValue/url(_:)``.
  public var modelValue: ModelValue { .url(self) }
  /// Unboxes ``ModelValue/url(_:)``.
  public init?(modelValue: ModelValue) {
    guard case .url(let value) = modelValue else { return nil }
    self = value
  }
}

extension Data: ColumnValue {
  /// No bytes.
  public static var placeholder: Data { Data() }
  /// The value as ``ModelValue/data(_:)``.
  public var modelValue: ModelValue { .data(self) }
  /// Unboxes ``ModelValue/data(_:)``.
  public init?(modelValue: ModelValue) {
    guard case .data(let value) = modelValue else { return nil }
    self = value
  }
}

extension Decimal: ColumnValue {
  /// Zero.
  public static var placeholder: Decimal { 0 }
  /// The value as ``ModelValue/decimal(_:)``.
  public var modelValue: ModelValue { .decimal(self) }
  /// Unboxes ``ModelValue/decimal(_:)`` or an integer.
  public init?(modelValue: ModelValue) {
    switch modelValue {
    case .decimal(let value): self = value
    case .int(let value): self = Decimal(value)
    default: return nil
    }
  }
}

extension Optional: ColumnValue where Wrapped: ColumnValue {
  /// `nil`.
  public static var placeholder: Wrapped? { nil }
  /// The wrapped value boxed, or ``ModelValue/null``.
  public var modelValue: ModelValue { self?.modelValue ?? .null }
  /// Unboxes ``ModelValue/null`` as `nil` and anything else as the wrapped type.
  public init?(modelValue: ModelValue) {
    if modelValue.isNull {
      self = .none
    } else {
      guard let value = Wrapped(modelValue: modelValue) else { return nil }
      self = .some(value)
    }
  }
}

extension Array: ColumnValue where Element: ColumnValue {
  /// The empty array.
  public static var placeholder: [Element] { [] }
  /// The elements boxed as ``ModelValue/array(_:)``.
  public var modelValue: ModelValue { .array(map(\.modelValue)) }
  /// Unboxes ``ModelValue/array(_:)`` whose every element has the element type.
  public init?(modelValue: ModelValue) {
    guard case .array(let values) = modelValue else { return nil }
    var result: [Element] = []
    result.reserveCapacity(values.count)
    for value in values {
      guard let element = Element(modelValue: value) else { return nil }
      result.append(element)
    }
    self = result
  }
}

extension UInt32: ColumnValue {
  /// Zero.
  public static var placeholder: UInt32 { 0 }
  /// The value as ``ModelValue/uint(_:)``.
  public var modelValue: ModelValue { .uint(UInt64(self)) }
  /// Unboxes a ``ModelValue/uint(_:)`` or ``ModelValue/int(_:)`` that fits.
  public init?(modelValue: ModelValue) {
    switch modelValue {
    case .uint(let value):
      guard let value = UInt32(exactly: value) else { return nil }
      self = value
    case .int(let value):
      guard let value = UInt32(exactly: value) else { return nil }
      self = value
    default: return nil
    }
  }
}

extension ColumnValue {
  /// Writes the value into `row` of `column`, which must be a column of `Self`.
  @inlinable
  public func store(in column: AnyColumn, row: Int) {
    unsafeDowncast(column, to: Column<Self>.self)[row] = self
  }

  /// Resets `row` of `column`, which must be a column of `Self`, to the placeholder.
  @inlinable
  public static func clear(row: Int, in column: AnyColumn) {
    unsafeDowncast(column, to: Column<Self>.self)[row] = placeholder
  }
}
