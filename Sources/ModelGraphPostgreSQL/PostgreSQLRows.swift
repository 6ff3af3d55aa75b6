internal import Foundation
internal import ModelGraphCore

/// Rows of one entity read from the database, turned into table rows once the catalog they
/// belong to is known.
struct FetchedRows {
  /// The entity's name.
  var entity: String
  /// `id`, the attributes in slot order, then the to-one relationships in slot order.
  var rows: PostgreSQLResult
  /// Per to-many relationship slot: owner and target, ordered by owner and position.
  var joins: [Int: PostgreSQLResult]

  /// The statements reading `entity`'s rows, all of them or those whose `id` is in `ids`.
  static func queries(for entity: ResolvedEntity, ids: [Int64]?) -> (
    rows: String, joins: [Int: String]
  ) {
    let filter =
      ids.map { " WHERE id = ANY('{\($0.map(String.init).joined(separator: ","))}')" } ?? ""
    let columns =
      ["id"] + entity.attributes.map { SQLMapping.quoted($0.name) }
      + entity.relationships.filter { !$0.isToMany }.map { SQLMapping.quoted($0.name) }
    let rows =
      "SELECT \(columns.joined(separator: ", ")) FROM \(SQLMapping.table(entity.name))\(filter)"
    var joins: [Int: String] = [:]
    let ownerFilter =
      ids.map { " WHERE owner = ANY('{\($0.map(String.init).joined(separator: ","))}')" } ?? ""
    for (slot, relationship) in entity.relationships.enumerated() where relationship.isToMany {
      joins[slot] =
        "SELECT owner, target FROM \(SQLMapping.joinTable(entity.name, relationship.name))"
        + "\(ownerFilter) ORDER BY owner, position"
    }
    return (rows, joins)
  }

  /// Writes the rows into `table` (of the entity in `catalog`); `entityOfCode` gives the local
  /// entity index of an identifier's code.
  ///
  /// With `keepingUnset`, a NULL in a required attribute's column (one a custom migration
  /// stage has yet to set) leaves the row's value as a new column holds it.
  ///
  /// - Returns: The rows written.
  /// - Throws: ``PostgreSQLError`` with code `malformed` for a value the schema cannot hold.
  func apply(to table: Table, keepingUnset: Bool = false, entityOfCode: (Int64) -> Int?)
    throws(PostgreSQLError) -> [Int]
  {
    let entity = table.entity
    let mask = (Int64(1) << SQLMapping.rowBits) - 1
    var written: [Int] = []
    written.reserveCapacity(rows.count)
    let toOneSlots = entity.relationships.indices.filter { !entity.relationships[$0].isToMany }
    func key(_ text: UnsafePointer<CChar>?) throws(PostgreSQLError) -> ObjectKey? {
      guard let text else { return nil }
      guard let id = Int64(String(cString: text)),
        let target = entityOfCode(id >> SQLMapping.rowBits)
      else { throw malformed("an identifier \(String(cString: text)) of no known class") }
      return ObjectKey(entity: target, row: Int(id & mask), generation: 0)
    }
    for index in 0..<rows.count {
      guard let text = rows.cString(index, 0), let id = Int64(String(cString: text)) else {
        throw malformed("a row without an id")
      }
      let row = Int(id & mask)
      table.setAlive(row: row, generation: 0)
      written.append(row)
      for (slot, attribute) in entity.attributes.enumerated() {
        let field = rows.cString(index, slot + 1)
        if keepingUnset, field == nil, !attribute.isOptional { continue }
        guard
          let value = SQLMapping.value(field, type: attribute.valueType),
          table.attributeColumns[slot].setValue(value, at: row)
        else {
          throw malformed(
            "\(entity.name).\(attribute.name) of row \(row) is not a \(attribute.valueType)"
              + (attribute.isOptional ? "?" : ""))
        }
        // A column wider than the declared type (bigint for Int8, double precision for Float):
        // another client may have written a value the classes cannot read back.
        if let problem = attribute.widthProblem(value) {
          throw malformed("\(entity.name).\(attribute.name) of row \(row): \(problem)")
        }
      }
      for (position, slot) in toOneSlots.enumerated() {
        let column = table.relationshipColumns[slot] as! Column<ObjectKey?>
        column[row] = try key(rows.cString(index, entity.attributes.count + 1 + position))
      }
    }
    for (slot, result) in joins {
      let column = table.relationshipColumns[slot] as! KeyListColumn
      var owner: Int64 = -1
      var list: [ObjectKey] = []
      func flush() {
        if owner >= 0 { column[Int(owner & mask)] = list }
      }
      for index in 0..<result.count {
        guard let text = result.cString(index, 0), let next = Int64(String(cString: text)) else {
          throw malformed("a join row without an owner")
        }
        if next != owner {
          flush()
          owner = next
          list = []
        }
        if let target = try key(result.cString(index, 1)) { list.append(target) }
      }
      flush()
    }
    return written
  }

  private func malformed(_ message: String) -> PostgreSQLError {
    PostgreSQLError(.malformed, message: "table \(entity): \(message)")
  }
}
