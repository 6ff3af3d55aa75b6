import Foundation

/// An expression compiled for one table: a typed function of the row, by storage type.
enum CompiledValue {
  case bool(RowFunction<Bool>)
  case int(RowFunction<Int64>)
  case uint(RowFunction<UInt64>)
  case double(RowFunction<Double>)
  case string(RowFunction<String>)
  case date(RowFunction<Date>)
  case uuid(RowFunction<UUID>)
  case url(RowFunction<URL>)
  case data(RowFunction<Data>)
  case decimal(RowFunction<Decimal>)
  /// An array attribute (or a constant list) with elements of a storage type.
  case array(CompiledArray)
  /// A model object, or `nil`.
  case object(CompiledObject)
  /// The keys of a to-many relationship's objects; some may name objects deleted since, which
  /// every consumer skips (as the relationship's getter does).
  case objects(RowFunction<[ObjectKey]>, destination: ResolvedEntity)
  /// The `nil` literal, before it meets a typed operand.
  case null

  /// The type's name, for error messages.
  var typeName: String {
    switch self {
    case .bool: "Bool"
    case .int: "Int"
    case .uint: "UInt"
    case .double: "Double"
    case .string: "String"
    case .date: "Date"
    case .uuid: "UUID"
    case .url: "URL"
    case .data: "Data"
    case .decimal: "Decimal"
    case .array(let array): "[\(array.elementType)]"
    case .object(let object): object.entity.name
    case .objects(_, let destination): "[\(destination.name)]"
    case .null: "nil"
    }
  }

  /// Whether the value is `nil` on a row.
  var isNil: (Int) -> Bool {
    switch self {
    case .bool(let f): { f.evaluate($0) == nil }
    case .int(let f): { f.evaluate($0) == nil }
    case .uint(let f): { f.evaluate($0) == nil }
    case .double(let f): { f.evaluate($0) == nil }
    case .string(let f): { f.evaluate($0) == nil }
    case .date(let f): { f.evaluate($0) == nil }
    case .uuid(let f): { f.evaluate($0) == nil }
    case .url(let f): { f.evaluate($0) == nil }
    case .data(let f): { f.evaluate($0) == nil }
    case .decimal(let f): { f.evaluate($0) == nil }
    case .array(let array): array.isNil
    case .object(let object): object.isNil
    case .objects(let f, _): { f.evaluate($0) == nil }
    case .null: { _ in true }
    }
  }

  /// The same value, `nil` on rows where `gate` is false.
  func gated(by gate: @escaping (Int) -> Bool) -> CompiledValue {
    switch self {
    case .bool(let f): .bool(f.gated(by: gate))
    case .int(let f): .int(f.gated(by: gate))
    case .uint(let f): .uint(f.gated(by: gate))
    case .double(let f): .double(f.gated(by: gate))
    case .string(let f): .string(f.gated(by: gate))
    case .date(let f): .date(f.gated(by: gate))
    case .uuid(let f): .uuid(f.gated(by: gate))
    case .url(let f): .url(f.gated(by: gate))
    case .data(let f): .data(f.gated(by: gate))
    case .decimal(let f): .decimal(f.gated(by: gate))
    case .array(let array): .array(array.gated(by: gate))
    case .object(let object): .object(object.gated(by: gate))
    case .objects(let f, let destination): .objects(f.gated(by: gate), destination: destination)
    case .null: .null
    }
  }
}

/// A model object compiled for one table.
struct CompiledObject {
  /// The object's key on a row, or `nil`; `nil` for the tested object itself (see ``isRoot``).
  let key: ((Int) -> ObjectKey?)?
  /// The object's declared class: the class of every object it can be, or their ancestor.
  let entity: ResolvedEntity

  /// The object tested, whose class is the table's.
  static func root(_ entity: ResolvedEntity) -> CompiledObject {
    CompiledObject(key: nil, entity: entity)
  }

  /// Whether this is the object tested (its row is the row scanned).
  var isRoot: Bool { key == nil }

  /// Whether the object is `nil` on a row.
  var isNil: (Int) -> Bool {
    guard let key else { return { _ in false } }
    return { key($0) == nil }
  }

  /// The same object, `nil` on rows where `gate` is false.
  func gated(by gate: @escaping (Int) -> Bool) -> CompiledObject {
    guard let key else { return self }
    return CompiledObject(key: { gate($0) ? key($0) : nil }, entity: entity)
  }
}

/// An array value compiled for one table, with its element storage type.
struct CompiledArray {
  /// The element's storage type.
  let elementType: ValueType
  /// A `RowFunction<[Element]>`, boxed once per compilation (never per row).
  let function: Any
  /// Whether the array is `nil` on a row.
  let isNil: (Int) -> Bool
  /// The same array, `nil` on rows where the gate is false.
  let gate: (@escaping (Int) -> Bool) -> CompiledArray

  /// Wraps a typed array function.
  static func make<Element: QueryScalar>(_ function: RowFunction<[Element]>, _ type: ValueType)
    -> CompiledArray
  {
    CompiledArray(
      elementType: type, function: function, isNil: { function.evaluate($0) == nil },
      gate: { make(function.gated(by: $0), type) })
  }

  /// The same array, `nil` on rows where `gate` is false.
  func gated(by gate: @escaping (Int) -> Bool) -> CompiledArray { self.gate(gate) }
}
