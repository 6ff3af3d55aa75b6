import Foundation

/// Compiles a ``QueryExpression`` into typed functions of a row of one table.
///
/// The tested object (variable 0) is the row scanned, of the table's class; its attributes are
/// read from the table's columns directly. Objects reached through relationships are read from
/// their own class's table through ``tables``, and count only while they live there.
final class QueryCompiler {
  /// The catalog the names resolve against.
  let catalog: SchemaCatalog
  /// The table read for each entity, by entity index.
  let tables: [Table]
  /// The class of the table compiled for.
  let entity: ResolvedEntity
  /// The value of each variable, by index (closures' variables are small integers).
  private var bindings: [CompiledValue?] = []
  /// Where the compiled functions record an arithmetic fault: made by the first arithmetic
  /// that can fault (``faultSlot()``), else `nil`; set before compiling to share one slot
  /// between compilations (the sort keys of a plan's tables).
  var faults: ArithmeticFaultSlot?

  /// A compiler for rows of `entity`'s table in `tables`.
  init(catalog: SchemaCatalog, tables: [Table], entity: ResolvedEntity) {
    self.catalog = catalog
    self.tables = tables
    self.entity = entity
    bindings = [.object(.root(entity))]
  }

  /// The table compiled for.
  var table: Table { tables[entity.index] }

  /// The slot the arithmetic compiled from now on records its faults in (made on first use).
  func faultSlot() -> ArithmeticFaultSlot {
    if let faults { return faults }
    let made = ArithmeticFaultSlot()
    faults = made
    return made
  }

  /// The entity called `name`.
  func entity(named name: String) throws -> ResolvedEntity {
    guard let entity = catalog.entity(named: name) else {
      throw QueryError(.unknownEntity, "no class named \(name) in the schema")
    }
    return entity
  }

  /// Compiles `body` with `variable` bound to `value`.
  func with<R>(_ variable: Int, boundTo value: CompiledValue, _ body: () throws -> R) rethrows
    -> R
  {
    if variable >= bindings.count {
      bindings += Array(repeating: nil, count: variable + 1 - bindings.count)
    }
    let saved = bindings[variable]
    bindings[variable] = value
    defer { bindings[variable] = saved }
    return try body()
  }

  /// The typed function computing `expression`.
  func value(_ expression: QueryExpression) throws -> CompiledValue {
    switch expression {
    case .constant(let value): return try constant(value)
    case .object(let key):
      let key = key ?? .placeholder
      let entity =
        catalog.entities.indices.contains(Int(key.entity))
        ? catalog.entities[Int(key.entity)] : entity
      return .object(CompiledObject(key: { _ in key }, entity: entity))
    case .variable(let index):
      guard index >= 0, index < bindings.count, let bound = bindings[index] else {
        throw QueryError(.unsupported, "variable $\(index) is not bound")
      }
      return bound
    case .attribute(let base, let name): return try attribute(of: object(base), name)
    case .relationship(let base, let name): return try relationship(of: object(base), name)
    case .cast(let base, let name): return .object(try cast(object(base), to: entity(named: name)))
    case .arithmetic(let lhs, let op, let rhs):
      return try arithmetic(value(lhs), op, value(rhs))
    case .negative(let operand): return try negative(value(operand))
    case .narrow(let operand, let width): return try narrow(operand, width)
    case .caseInsensitiveCompare(let lhs, let rhs):
      return try caseInsensitiveCompare(value(lhs), value(rhs))
    case .coalesce(let lhs, let rhs): return try coalesce(value(lhs), value(rhs))
    case .conditional(let test, let then, let otherwise):
      return try conditional(condition(test), value(then), value(otherwise))
    case .flatMap(let base, let variable, let body):
      return try flatMap(value(base), variable, body)
    case .count(let operand): return try count(value(operand))
    case .opaque(let text):
      throw QueryError(.unsupported, "\(text) is evaluated by the front end")
    case .typeTest, .and, .or, .not, .comparison, .string, .contains, .any, .all:
      let condition = try condition(expression)
      if let constant = condition.constant { return .bool(RowFunction(constant: constant)) }
      let test = condition.test
      return .bool(RowFunction { test($0) })
    }
  }

  /// The object `expression` evaluates to.
  func object(_ expression: QueryExpression) throws -> CompiledObject {
    let compiled = try value(expression)
    switch compiled {
    case .object(let object): return object
    case .null: return CompiledObject(key: { _ in nil }, entity: entity)
    default:
      throw QueryError(.typeMismatch, "\(expression) is a \(compiled.typeName), not an object")
    }
  }

  private func constant(_ value: ModelValue) throws -> CompiledValue {
    switch value {
    case .null: return .null
    case .bool(let value): return .bool(RowFunction(constant: value))
    case .int(let value): return .int(RowFunction(constant: value))
    case .uint(let value): return .uint(RowFunction(constant: value))
    case .double(let value): return .double(RowFunction(constant: value))
    case .string(let value): return .string(RowFunction(constant: value))
    case .date(let value): return .date(RowFunction(constant: value))
    case .uuid(let value): return .uuid(RowFunction(constant: value))
    case .url(let value): return .url(RowFunction(constant: value))
    case .data(let value): return .data(RowFunction(constant: value))
    case .decimal(let value): return .decimal(RowFunction(constant: value))
    case .array(let values):
      let type = values.lazy.compactMap { CompiledValue.constantType(of: $0) }.first ?? .string
      struct MakeArray: ScalarTypeVisitor {
        let values: [ModelValue]
        let type: ValueType
        func visit<T: QueryScalar>(_: T.Type) throws -> CompiledValue {
          let elements = try values.map { value in
            guard let element = T(modelValue: value) else {
              throw QueryError(.typeMismatch, "\(value) in a list of \(type)")
            }
            return element
          }
          return .array(.make(RowFunction<[T]>(constant: elements), type))
        }
      }
      return try type.visitScalar(MakeArray(values: values, type: type))
        ?? .array(.make(RowFunction<[String]>(constant: []), .string))
    }
  }

  /// The typed function of `base`'s conditional cast to `target`.
  func cast(_ base: CompiledObject, to target: ResolvedEntity) -> CompiledObject {
    guard let key = base.key else {
      return entity.isKind(of: target)
        ? base : CompiledObject(key: { _ in nil }, entity: target)
    }
    let entities = catalog.entities
    return CompiledObject(
      key: { row in
        guard let found = key(row), entities[Int(found.entity)].isKind(of: target) else {
          return nil
        }
        return found
      }, entity: target)
  }
}

extension CompiledValue {
  /// The storage type of a constant, when it has one.
  static func constantType(of value: ModelValue) -> ValueType? {
    switch value {
    case .null, .array: nil
    case .bool: .bool
    case .int: .int
    case .uint: .uint
    case .double: .double
    case .string: .string
    case .date: .date
    case .uuid: .uuid
    case .url: .url
    case .data: .data
    case .decimal: .decimal
    }
  }
}
