extension QueryCompiler {
  /// The typed function reading attribute `name` of `object`.
  func attribute(of object: CompiledObject, _ name: String) throws -> CompiledValue {
    let owner = object.isRoot ? entity : object.entity
    guard let slot = owner.attributeSlot(named: name) else {
      throw QueryError(.unknownProperty, "\(owner.name) has no attribute \(name)")
    }
    let description = owner.attributes[slot]
    let reader = AttributeReader(
      object: object, slot: slot, isOptional: description.isOptional, table: table,
      tables: tables)
    if case .array(let element) = description.valueType {
      guard
        let compiled = try element.visitScalar(ArrayAttributeReader(reader: reader, type: element))
      else { throw QueryError(.unsupported, "nested arrays are not supported") }
      return compiled
    }
    return try description.valueType.visitScalar(reader) ?? .null
  }

  /// The typed function reading relationship `name` of `object`: an object for a to-one
  /// relationship, keys for a to-many one. A related object deleted since counts as `nil`.
  func relationship(of object: CompiledObject, _ name: String) throws -> CompiledValue {
    let owner = object.isRoot ? entity : object.entity
    guard let slot = owner.relationshipSlot(named: name) else {
      throw QueryError(.unknownProperty, "\(owner.name) has no relationship \(name)")
    }
    let description = owner.relationships[slot]
    let destination = try entity(named: description.destination)
    let tables = tables
    if description.isToMany {
      if object.isRoot {
        let column = unsafeDowncast(table.relationshipColumns[slot], to: KeyListColumn.self)
        return .objects(RowFunction { column[$0] }, destination: destination)
      }
      let key = object.key!
      return .objects(
        RowFunction { row in
          guard let found = key(row), tables[Int(found.entity)].contains(found) else { return nil }
          return unsafeDowncast(
            tables[Int(found.entity)].relationshipColumns[slot], to: KeyListColumn.self)[
              Int(found.row)]
        }, destination: destination)
    }
    let read: (Int) -> ObjectKey?
    if object.isRoot {
      let column = unsafeDowncast(table.relationshipColumns[slot], to: Column<ObjectKey?>.self)
      read = { column[$0] }
    } else {
      let key = object.key!
      read = { row in
        guard let found = key(row), tables[Int(found.entity)].contains(found) else { return nil }
        return unsafeDowncast(
          tables[Int(found.entity)].relationshipColumns[slot], to: Column<ObjectKey?>.self)[
            Int(found.row)]
      }
    }
    return .object(
      CompiledObject(
        key: { row in
          guard let related = read(row), tables[Int(related.entity)].contains(related) else {
            return nil
          }
          return related
        }, entity: destination))
  }
}

/// Reads a scalar attribute of the tested object (a column) or of a related object.
private struct AttributeReader: ScalarTypeVisitor {
  let object: CompiledObject
  let slot: Int
  let isOptional: Bool
  let table: Table
  let tables: [Table]

  func visit<T: QueryScalar>(_: T.Type) throws -> CompiledValue {
    try T.wrap(function(T.self))
  }

  func function<T: ColumnValue>(_: T.Type) throws -> RowFunction<T> {
    let slot = slot
    if let key = object.key {
      let tables = tables
      if isOptional {
        return RowFunction { row in
          guard let found = key(row) else { return nil }
          let table = tables[Int(found.entity)]
          guard table.contains(found) else { return nil }
          return unsafeDowncast(table.attributeColumns[slot], to: Column<T?>.self)[Int(found.row)]
        }
      }
      return RowFunction { row in
        guard let found = key(row) else { return nil }
        let table = tables[Int(found.entity)]
        guard table.contains(found) else { return nil }
        return unsafeDowncast(table.attributeColumns[slot], to: Column<T>.self)[Int(found.row)]
      }
    }
    let column = table.attributeColumns[slot]
    if isOptional {
      guard let typed = column as? Column<T?> else { throw mismatch(column) }
      return RowFunction(optionalColumn: typed)
    }
    guard let typed = column as? Column<T> else { throw mismatch(column) }
    return RowFunction(column: typed)
  }

  private func mismatch(_ column: AnyColumn) -> QueryError {
    QueryError(.typeMismatch, "attribute slot \(slot) stores \(column.elementType)")
  }
}

/// Reads an array attribute.
private struct ArrayAttributeReader: ScalarTypeVisitor {
  let reader: AttributeReader
  let type: ValueType

  func visit<T: QueryScalar>(_: T.Type) throws -> CompiledValue {
    .array(.make(try reader.function([T].self), type))
  }
}
