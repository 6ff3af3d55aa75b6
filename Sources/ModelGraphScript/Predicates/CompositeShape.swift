import ModelGraphCore

/// The fields of a Codable type: as the file's schema records them (``init(declared:)``), or,
/// for a file that records only the type's name (older than format 5), as the runner infers
/// them from every stored value of it: a value's JSON (as Swift's `JSONEncoder` writes it) names
/// its fields but not their Swift types. So numbers are `Number` (an `Int`
/// and a whole `Double` encode alike), a field missing or `null` in some values is optional,
/// and a field whose values disagree in kind is reported as mixed.
struct CompositeShape: Equatable {
  /// What the values of one field hold.
  indirect enum Kind: Equatable {
    /// `true` or `false`.
    case bool
    /// A number; `whole` when every value read was a whole number; `declared`, the Swift type
    /// of a field the schema records (`Int`, `UInt`, `Double` or `Decimal`).
    case number(whole: Bool, declared: ValueType? = nil)
    /// A string; `declared`, the Swift type of a field the schema records (`String`, `UUID`,
    /// `URL`, `Data`, or an enum's raw `String`).
    case string(declared: ValueType? = nil)
    /// A nested Codable value.
    case object(CompositeShape)
    /// A list, of elements of a kind (`nil` when every list read was empty).
    case array(Kind?)
  }

  /// One field across the values read.
  struct Field: Equatable {
    /// The values holding the field with a value other than `null`.
    var present = 0
    /// The values holding the field as `null`.
    var nulls = 0
    /// The kind of its values (`nil` when every one was `null`).
    var kind: Kind?
    /// The kinds seen besides ``kind`` when the values disagree.
    var conflicts: [String] = []

    mutating func add(_ value: ImportValue) {
      guard let other = Kind(value) else {
        nulls += 1
        return
      }
      present += 1
      guard let known = kind else {
        kind = other
        return
      }
      if let merged = known.merged(with: other) {
        kind = merged
      } else if !conflicts.contains(other.name) {
        conflicts.append(other.name)
      }
    }
  }

  /// The values read (objects or not).
  var values = 0
  /// The values that were not JSON objects (a Codable enum stores a string, for one).
  var nonObjects = 0
  /// The fields, by name.
  var fields: [String: Field] = [:]

  /// Adds one stored value to the shape.
  mutating func add(_ value: ImportValue) {
    values += 1
    guard case .object(let members) = value else {
      nonObjects += 1
      return
    }
    for (name, member) in members { fields[name, default: Field()].add(member) }
  }

  /// The shape the schema records, when it does.
  var declared: CodableShape?

  /// The shape a Swift model declared: one value with every required field.
  init(declared shape: CodableShape) {
    declared = shape
    values = 1
    guard case .object(let members) = shape else {
      nonObjects = 1
      return
    }
    for member in members {
      fields[member.name] = Field(
        present: member.isOptional ? 0 : 1, nulls: 0, kind: Kind(declared: member.shape))
    }
  }

  /// No values read yet.
  init() {}

  /// Whether a value may leave `field` out or `null`: some value read did.
  func isOptional(_ field: Field) -> Bool { field.present < values }

  /// The field names, sorted, for messages.
  var fieldList: String { fields.keys.sorted().joined(separator: ", ") }

  /// The shape as `{name: Kind, other: Kind?}`.
  var description: String {
    if let declared { return declared.description }
    let members = fields.keys.sorted().map { name -> String in
      let field = fields[name]!
      let kind = ([field.kind?.name ?? "nil"] + field.conflicts).joined(separator: "|")
      return "\(name): \(kind)\(isOptional(field) && field.kind != nil ? "?" : "")"
    }
    return "{" + members.joined(separator: ", ") + "}"
  }
}

extension CompositeShape.Kind {
  /// The kind of JSON a declared field's values encode to (Swift's `JSONEncoder`: dates as
  /// numbers, data, URLs and UUIDs as strings); `nil` when the declaration does not show it.
  init?(declared shape: CodableShape) {
    switch shape {
    case .value(.bool): self = .bool
    case .value(let type) where [.int, .uint].contains(type):
      self = .number(whole: true, declared: type)
    case .value(let type) where [.double, .decimal].contains(type):
      self = .number(whole: false, declared: type)
    case .value(.date): self = .number(whole: false)
    case .value(let type): self = .string(declared: type)
    case .object: self = .object(CompositeShape(declared: shape))
    case .array(let element): self = .array(Self(declared: element))
    case .unknown: return nil
    }
  }

  /// The kind of a JSON value, or `nil` for `null`.
  init?(_ value: ImportValue) {
    switch value {
    case .null: return nil
    case .bool: self = .bool
    case .int: self = .number(whole: true)
    case .double(let number): self = .number(whole: number.rounded() == number)
    case .number(let text): self = .number(whole: Double(text).map { $0.rounded() == $0 } ?? false)
    case .string, .text: self = .string()
    case .object:
      var shape = CompositeShape()
      shape.add(value)
      self = .object(shape)
    case .array(let elements):
      var element: Self?
      for item in elements {
        guard let kind = Self(item) else { continue }
        guard let known = element else {
          element = kind
          continue
        }
        guard let merged = known.merged(with: kind) else { return nil }
        element = merged
      }
      self = .array(element)
    }
  }

  /// The kind covering both, or `nil` when they disagree (a string and a number).
  func merged(with other: Self) -> Self? {
    switch (self, other) {
    case (.bool, .bool): return .bool
    case (.string(let type), .string(let other)):
      return .string(declared: type == other ? type : nil)
    case (.number(let a, let type), .number(let b, let other)):
      return .number(whole: a && b, declared: type == other ? type : nil)
    case (.object(var shape), .object(let more)):
      shape.values += more.values
      shape.nonObjects += more.nonObjects
      for (name, field) in more.fields {
        var mergedField = shape.fields[name] ?? CompositeShape.Field()
        mergedField.present += field.present
        mergedField.nulls += field.nulls
        mergedField.conflicts += field.conflicts.filter { !mergedField.conflicts.contains($0) }
        if let kind = field.kind {
          if let known = mergedField.kind {
            if let both = known.merged(with: kind) {
              mergedField.kind = both
            } else if !mergedField.conflicts.contains(kind.name) {
              mergedField.conflicts.append(kind.name)
            }
          } else {
            mergedField.kind = kind
          }
        }
        shape.fields[name] = mergedField
      }
      return .object(shape)
    case (.array(let a), .array(let b)):
      guard let a else { return .array(b) }
      guard let b else { return .array(a) }
      return a.merged(with: b).map { .array($0) }
    default: return nil
    }
  }

  /// The kind as `.schema` and messages show it.
  var name: String {
    switch self {
    case .bool: "Bool"
    case .number: "Number"
    case .string: "String"
    case .object(let shape): shape.description
    case .array(let element): "[\(element?.name ?? "?")]"
    }
  }

  /// The kind as the runner's static type; `path` names a nested value's type.
  func valueType(path: String) -> ValueType? {
    switch self {
    case .bool: .bool
    // Exactly as the Swift type declares it, or as `Double` (a `Double` field, or a shape
    // inferred from stored values).
    case .number(_, let declared?) where [.int, .uint, .decimal].contains(declared): declared
    case .number: .double
    case .string: .string
    case .object: .composite(path)
    case .array(let element): element?.valueType(path: path).map { .array($0) }
    }
  }
}
