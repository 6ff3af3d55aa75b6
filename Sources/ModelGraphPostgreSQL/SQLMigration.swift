internal import Foundation
internal import ModelGraphCore

/// One lightweight step of a migration made in the database: the tables of the entities both
/// schemas have are altered (columns dropped, renamed, added with their initial value, made
/// required or optional; join tables likewise), the tables of removed entities dropped, and the
/// references to their objects cleared. Statements run one by one in the caller's transaction;
/// stored data the newer schema rejects throws ``MigrationError`` as the in-memory migration
/// does. New entities' tables, added relationships' derived values and the constraints come
/// after (``SQLMigration/finish()``), once every table of the step exists.
struct SQLMigration {
  let connection: PostgreSQLConnection
  let source: SchemaCatalog
  let target: SchemaCatalog
  let defaults: [String: [String: ModelValue]]
  let codes: [String: Int64]
  /// The version the migration commits as, which rows it changes get.
  let version: UInt64
  /// Whether the step is a custom stage's: attributes a lightweight step cannot fill are left
  /// NULL for its code to set (``owed``) instead of failing the step.
  let custom: Bool
  /// With ``custom``: the attributes (class, attribute) the stage's code must set on every
  /// object, whose columns are NULL until it does.
  private(set) var owed: [(entity: String, attribute: String)] = []

  /// Relationships the target adds to entities both schemas have: (entity, slot) in `target`.
  private(set) var added: [(entity: Int, slot: Int)] = []
  /// To-one relationships a custom stage's step emptied (their destination, cardinality or
  /// inverse changed): (entity, slot) in `target`; their foreign keys come in ``finish()``.
  var relinked: [(entity: Int, slot: Int)] = []
  /// The relationships whose stored values cannot carry over
  /// (``startingEmpty(from:to:)``).
  let resets: [String: String]

  init(
    connection: PostgreSQLConnection, source: SchemaCatalog, target: SchemaCatalog,
    defaults: [String: [String: ModelValue]], codes: [String: Int64], version: UInt64,
    custom: Bool = false
  ) {
    self.connection = connection
    self.source = source
    self.target = target
    self.defaults = defaults
    self.codes = codes
    self.version = version
    self.custom = custom
    resets = Self.startingEmpty(from: source, to: target)
  }

  /// After a custom stage's code and save: makes the owed required attributes' columns
  /// `NOT NULL` (the stage checked every object got a value).
  func requireOwed() throws {
    try runPendingChecks()
    for item in owed {
      guard let entity = target.entity(named: item.entity),
        let attribute = entity.attributes.first(where: { $0.name == item.attribute }),
        !attribute.isOptional
      else { continue }
      try run(
        "ALTER TABLE \(SQLMapping.table(entity.name)) ALTER COLUMN "
          + "\(SQLMapping.quoted(attribute.name)) SET NOT NULL")
    }
  }

  private func run(_ sql: String) throws {
    _ = try connection.run(sql)
  }

  /// Runs the deferred constraint checks the transaction has pending, so that the ALTER
  /// TABLEs that follow are not refused for them (PostgreSQL does not alter a table with
  /// pending trigger events: rows a stage's save inserted with a reference, rows updated twice
  /// in the transaction); the constraints stay deferred after. A check that fails throws, as
  /// it would at the commit.
  func runPendingChecks() throws {
    try run("SET CONSTRAINTS ALL IMMEDIATE; SET CONSTRAINTS ALL DEFERRED")
  }

  /// Drops removed entities' tables and alters the others'.
  mutating func alterTables() throws {
    try runPendingChecks()
    let removed = source.entities.filter { target.entity(named: $0.name) == nil }
    for entity in removed {
      let joins = entity.relationships.filter(\.isToMany).map {
        SQLMapping.joinTable(entity.name, $0.name)
      }
      try run(
        "DROP TABLE IF EXISTS \(([SQLMapping.table(entity.name)] + joins).joined(separator: ", ")) "
          + "CASCADE")
    }
    let removedCodes = removed.compactMap { codes[$0.name] }
    for entity in target.entities {
      guard let old = source.entity(named: entity.name) else { continue }
      try alter(old, to: entity)
      if !removedCodes.isEmpty { try clearReferences(of: entity, to: removed, codes: removedCodes) }
    }
  }

  private mutating func alter(_ old: ResolvedEntity, to new: ResolvedEntity) throws {
    let table = SQLMapping.table(new.name)
    let attributes = PropertyPairing(
      old: old.attributes.map(\.name), new: new.attributes.map { ($0.name, $0.originalName) })
    let relationships = PropertyPairing(
      old: old.relationships.map(\.name),
      new: new.relationships.map { ($0.name, $0.originalName) })
    // Removed columns and join tables first, so that their names are free.
    for name in attributes.removed {
      try run("ALTER TABLE \(table) DROP COLUMN IF EXISTS \(SQLMapping.quoted(name))")
    }
    for name in relationships.removed {
      guard let slot = old.relationshipSlot(named: name) else { continue }
      try run(
        old.relationships[slot].isToMany
          ? "DROP TABLE IF EXISTS \(SQLMapping.joinTable(old.name, name))"
          : "ALTER TABLE \(table) DROP COLUMN IF EXISTS \(SQLMapping.quoted(name))")
    }
    // Renames go through temporary names, so that two properties may swap names.
    var columns: [(from: String, to: String)] = []
    var joins: [(from: String, to: String)] = []
    var converted: [(column: String, relationship: String, copies: Bool)] = []
    let emptied = startingEmpty(in: new).filter { relationships.oldIndex[$0.key] != nil }
    var becameToOne: [Int] = []
    for (slot, oldSlot) in attributes.oldIndex.enumerated() {
      guard let oldSlot, old.attributes[oldSlot].name != new.attributes[slot].name else { continue }
      columns.append((old.attributes[oldSlot].name, new.attributes[slot].name))
    }
    for (slot, oldSlot) in relationships.oldIndex.enumerated() {
      guard let oldSlot else { continue }
      let before = old.relationships[oldSlot]
      let after = new.relationships[slot]
      if before.isToMany && !after.isToMany {
        // Its list cannot carry over: dropped, the column comes empty once names are free.
        try run("DROP TABLE IF EXISTS \(SQLMapping.joinTable(old.name, before.name))")
        becameToOne.append(slot)
      } else if !before.isToMany && after.isToMany {
        converted.append((before.name, after.name, emptied[slot] == nil))
      } else if before.name != after.name {
        if after.isToMany {
          joins.append((before.name, after.name))
        } else {
          columns.append((before.name, after.name))
        }
      }
    }
    for (index, rename) in columns.enumerated() {
      try run(
        "ALTER TABLE \(table) RENAME COLUMN \(SQLMapping.quoted(rename.from)) TO "
          + SQLMapping.quoted("mg_renaming_\(index)"))
    }
    for (index, rename) in columns.enumerated() {
      try run(
        "ALTER TABLE \(table) RENAME COLUMN \(SQLMapping.quoted("mg_renaming_\(index)")) TO "
          + SQLMapping.quoted(rename.to))
    }
    for (index, rename) in joins.enumerated() {
      try run(
        "ALTER TABLE \(SQLMapping.joinTable(old.name, rename.from)) RENAME TO "
          + SQLMapping.quoted("\(new.name).mg_renaming_\(index)"))
    }
    for (index, rename) in joins.enumerated() {
      try run(
        "ALTER TABLE \(SQLMapping.quoted("\(new.name).mg_renaming_\(index)")) RENAME TO "
          + SQLMapping.quoted("\(new.name).\(rename.to)"))
    }
    // A to-one that became to-many: its reference becomes the first of a list (unless the
    // stage empties it).
    for conversion in converted {
      try run(SQLMapping.createJoinTable(new.name, conversion.relationship))
      let column = SQLMapping.quoted(conversion.column)
      if conversion.copies {
        try run(
          "INSERT INTO \(SQLMapping.joinTable(new.name, conversion.relationship)) (owner, "
            + "position, target) SELECT id, 0, \(column) FROM \(table) WHERE \(column) IS NOT NULL")
      }
      try run("ALTER TABLE \(table) DROP COLUMN \(column)")
    }
    for slot in becameToOne { try addEmptied(slot, of: new) }
    // The others whose values cannot carry over keep their storage, emptied.
    for slot in emptied.keys.sorted() {
      guard let oldSlot = relationships.oldIndex[slot],
        old.relationships[oldSlot].isToMany == new.relationships[slot].isToMany
      else { continue }
      try empty(slot, of: new)
    }
    for (slot, attribute) in new.attributes.enumerated() {
      let column = SQLMapping.quoted(attribute.name)
      let fallback = defaults[new.name]?[attribute.name]
      guard let oldSlot = attributes.oldIndex[slot] else {
        if custom, fallback == nil, !attribute.isOptional {
          // The stage's code sets it on every object; `NOT NULL` once it did.
          try run(
            "ALTER TABLE \(table) ADD COLUMN \(column) \(SQLMapping.sqlType(attribute.valueType))")
          owed.append((new.name, attribute.name))
          continue
        }
        try addColumn(attribute, fallback: fallback, of: new)
        continue
      }
      let previous = old.attributes[oldSlot]
      if previous.valueType != attribute.valueType, custom {
        // The stage's code converts the values: the column starts empty.
        try run(
          "ALTER TABLE \(table) DROP COLUMN \(column); ALTER TABLE \(table) ADD COLUMN "
            + "\(column) \(SQLMapping.sqlType(attribute.valueType))")
        owed.append((new.name, attribute.name))
        continue
      }
      guard previous.valueType == attribute.valueType else {
        throw Self.typeChangeRefused(
          new, previous, attribute,
          "changes its type: a lightweight stage cannot convert stored values; use a custom "
            + "stage")
      }
      if !custom {
        try checkIntegerWidth(previous, attribute, of: new, table: table, column: column)
        try checkFloatWidth(previous, attribute, of: new, table: table, column: column)
      }
      if previous.isOptional, !attribute.isOptional {
        if let fallback {
          try run(
            "UPDATE \(table) SET \(column) = "
              + "\(SQLMapping.literal(fallback, type: attribute.valueType)) WHERE \(column) IS NULL"
          )
        } else {
          let missing =
            try connection.query(
              "SELECT count(*) FROM \(table) WHERE \(column) IS NULL"
            ).text(0, 0).flatMap(Int.init) ?? 0
          if missing > 0, custom {
            owed.append((new.name, attribute.name))
            continue
          }
          if missing > 0 {
            throw Self.typeChangeRefused(
              new, previous, attribute,
              "cannot be migrated lightweight: \(missing) stored object"
                + "\(missing == 1 ? " has" : "s have") no value and the attribute has no "
                + "initial value; declare one or use a custom stage")
          }
        }
        try run("ALTER TABLE \(table) ALTER COLUMN \(column) SET NOT NULL")
      } else if !previous.isOptional, attribute.isOptional {
        try run("ALTER TABLE \(table) ALTER COLUMN \(column) DROP NOT NULL")
      }
    }
    for (slot, relationship) in new.relationships.enumerated()
    where relationships.oldIndex[slot] == nil {
      added.append((new.index, slot))
      try run(
        relationship.isToMany
          ? SQLMapping.createJoinTable(new.name, relationship.name)
          : "ALTER TABLE \(table) ADD COLUMN \(SQLMapping.quoted(relationship.name)) bigint")
    }
  }

  /// The error refusing a lightweight step for `attribute` of `entity`, whose type (or
  /// optionality) changes from `previous`'s: `Entity.attribute` followed by `reason`.
  private static func typeChangeRefused(
    _ entity: ResolvedEntity, _ previous: AttributeDescription,
    _ attribute: AttributeDescription, _ reason: String
  ) -> MigrationError {
    MigrationError(
      .notLightweight,
      differences: [
        SchemaDifference(
          entity: entity.name, property: attribute.name,
          change: .attributeTypeChanged(from: typeName(previous), to: typeName(attribute)))
      ],
      message: "\(entity.name).\(attribute.name) \(reason)")
  }

  /// Refuses to narrow an integer column's declared width (``AttributeDescription/integerWidth``)
  /// while a stored value is outside the narrower type; an array attribute's elements are
  /// checked as its rows load.
  private func checkIntegerWidth(
    _ previous: AttributeDescription, _ attribute: AttributeDescription,
    of entity: ResolvedEntity, table: String, column: String
  ) throws {
    guard let width = attribute.narrowedWidth(from: previous),
      attribute.valueType == .int || attribute.valueType == .uint
    else { return }
    let result = try connection.query(
      "SELECT id, \(column) FROM \(table) WHERE \(column) < \(width.range.lowerBound) OR "
        + "\(column) > \(width.range.upperBound) ORDER BY id LIMIT 1")
    guard result.count > 0, let id = result.text(0, 0).flatMap(Int64.init),
      let text = result.text(0, 1)
    else { return }
    let row = id & ((Int64(1) << SQLMapping.rowBits) - 1)
    let value =
      attribute.valueType == .int
      ? Int64(text).map(ModelValue.int) : UInt64(text).map(ModelValue.uint)
    let problem =
      value.flatMap(attribute.integerWidthProblem)
      ?? "\(text) is out of the range of \(width.rawValue) (\(width.range))"
    throw MigrationError.narrowedWidth(
      of: attribute, from: previous, in: entity.name, holder: "row \(row)", problem: problem,
      remedy: "in a custom stage")
  }

  /// Refuses to make a `Double` column `Float` (``AttributeDescription/isFloat32``) while a
  /// stored value is no `Float` value; an array attribute's elements are checked as its rows
  /// load.
  private func checkFloatWidth(
    _ previous: AttributeDescription, _ attribute: AttributeDescription,
    of entity: ResolvedEntity, table: String, column: String
  ) throws {
    guard attribute.isFloat32, !previous.isFloat32, attribute.valueType == .double else { return }
    // Casting to real fails on a finite value beyond Float's range or one that would round to
    // zero: those are refused before the cast.
    let largest = Double(Float.greatestFiniteMagnitude)
    let smallest = Double(Float.leastNonzeroMagnitude)
    let result = try connection.query(
      "SELECT id, \(column) FROM \(table) WHERE CASE WHEN \(column) = 'NaN'::float8 OR "
        + "abs(\(column)) = 'Infinity'::float8 OR \(column) = 0 THEN false "
        + "WHEN abs(\(column)) > \(largest) OR abs(\(column)) < \(smallest) THEN true "
        + "ELSE \(column)::real::float8 <> \(column) END ORDER BY id LIMIT 1")
    guard result.count > 0, let id = result.text(0, 0).flatMap(Int64.init),
      let text = result.text(0, 1)
    else { return }
    let row = id & ((Int64(1) << SQLMapping.rowBits) - 1)
    let problem =
      Double(text).flatMap { attribute.floatWidthProblem(.double($0)) }
      ?? "\(text) is no Float value"
    throw MigrationError.narrowedWidth(
      of: attribute, from: previous, in: entity.name, holder: "row \(row)", problem: problem,
      remedy: "in a custom stage")
  }

  /// Adds the column of an attribute the target adds, holding its initial value (or NULL).
  private func addColumn(
    _ attribute: AttributeDescription, fallback: ModelValue?, of entity: ResolvedEntity
  ) throws {
    guard fallback != nil || attribute.isOptional else {
      throw MigrationError(
        .notLightweight,
        differences: [
          SchemaDifference(entity: entity.name, property: attribute.name, change: .attributeAdded)
        ],
        message: "\(entity.name).\(attribute.name) cannot be migrated lightweight: it is not "
          + "optional and has no initial value; declare one, make it optional, or use a custom "
          + "stage")
    }
    let table = SQLMapping.table(entity.name)
    let column = SQLMapping.quoted(attribute.name)
    let initial = fallback.map {
      " DEFAULT \(SQLMapping.literal($0, type: attribute.valueType))"
    }
    try run(
      "ALTER TABLE \(table) ADD COLUMN \(column) \(SQLMapping.sqlType(attribute.valueType))"
        + (initial ?? "") + (attribute.isOptional ? "" : " NOT NULL"))
    if initial != nil { try run("ALTER TABLE \(table) ALTER COLUMN \(column) DROP DEFAULT") }
  }

  /// Clears references to objects of removed entities from the relationships of `entity` whose
  /// stored destination included one of them.
  private func clearReferences(
    of entity: ResolvedEntity, to removed: [ResolvedEntity], codes removedCodes: [Int64]
  ) throws {
    let removedNames = Set(removed.map(\.name))
    let list = "'{\(removedCodes.map(String.init).joined(separator: ","))}'::bigint[]"
    for relationship in entity.relationships {
      guard let destination = source.entity(named: relationship.destination),
        source.subtree(of: destination.index).contains(where: {
          removedNames.contains(source.entities[$0].name)
        })
      else { continue }
      let column = SQLMapping.quoted(relationship.name)
      let table = SQLMapping.table(entity.name)
      if relationship.isToMany {
        let join = SQLMapping.joinTable(entity.name, relationship.name)
        let cleared = "(target >> \(SQLMapping.rowBits)) = ANY(\(list))"
        try run(
          "UPDATE \(table) SET _version = \(version) WHERE id IN (SELECT owner FROM \(join) "
            + "WHERE \(cleared)); DELETE FROM \(join) WHERE \(cleared)")
      } else {
        try run(
          "UPDATE \(table) SET \(column) = NULL, _version = \(version) "
            + "WHERE (\(column) >> \(SQLMapping.rowBits)) = ANY(\(list))")
      }
    }
  }

  /// `String`, `Int?`, as a declaration prints the stored type.
  static func typeName(_ attribute: AttributeDescription) -> String {
    "\(attribute.valueType)\(attribute.isOptional ? "?" : "")"
  }
}
