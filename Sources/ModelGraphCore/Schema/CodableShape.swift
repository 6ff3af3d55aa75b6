/// The fields of a `Codable` type stored as a composite attribute, as the Swift model declares
/// them: the file's schema records it, so tools (the runner) read a value field by field
/// without guessing from stored values.
public indirect enum CodableShape: Sendable, Hashable, CustomStringConvertible {
  /// A single value of a built-in type (a field of type `String`, `Int`, `Date`, …, or a type
  /// encoded as one, such as an enum with raw values).
  case value(ValueType)
  /// A keyed value: its fields in declaration order.
  case object([Field])
  /// A list of elements of one shape.
  case array(CodableShape)
  /// A type whose encoding the declaration does not show (a dictionary, a custom coding).
  case unknown

  /// One field of a keyed value.
  public struct Field: Sendable, Hashable {
    /// The field's key in the encoded value.
    public var name: String
    /// What the field holds.
    public var shape: CodableShape
    /// Whether the field may be missing or `null`.
    public var isOptional: Bool

    /// A field called `name` of `shape`.
    public init(name: String, shape: CodableShape, isOptional: Bool = false) {
      self.name = name
      self.shape = shape
      self.isOptional = isOptional
    }
  }

  /// The shape as `.schema` shows it: `{street: String, zip: Int?, tags: [String]}`.
  public var description: String {
    switch self {
    case .value(let type): type.description
    case .object(let fields):
      "{"
        + fields.map { "\($0.name): \($0.shape)\($0.isOptional ? "?" : "")" }
        .joined(separator: ", ") + "}"
    case .array(let element): "[\(element)]"
    case .unknown: "?"
    }
  }

  /// The field called `name`, when the shape is keyed.
  public func field(_ name: String) -> Field? {
    guard case .object(let fields) = self else { return nil }
    return fields.first { $0.name == name }
  }
}
