internal import Foundation
internal import ModelGraphCore

/// How entities, attributes and values appear in SQL.
enum SQLMapping {
  /// Object identifiers are `code << rowBits | row`: the entity's code in `mg_entities` and
  /// the object's row, the same in every process.
  static let rowBits: Int64 = 40

  /// `name` as a quoted SQL identifier.
  static func quoted(_ name: String) -> String { enclosed(name, by: "\"") }

  /// The table of a concrete class.
  static func table(_ entity: String) -> String { quoted(entity) }

  /// The join table of a to-many relationship: owner, position, target.
  static func joinTable(_ entity: String, _ relationship: String) -> String {
    quoted("\(entity).\(relationship)")
  }

  /// A string literal.
  static func literal(_ text: String) -> String { enclosed(text, by: "'") }

  /// `text` between two `mark`s, with each `mark` in it doubled: SQL's escape inside both
  /// string literals and quoted identifiers.
  ///
  /// Works on Unicode scalars, as PostgreSQL reads the text: a mark followed by a combining
  /// character is one `Character` to Swift (and passed over by a search for the mark), but the
  /// server reads the mark alone.
  /// - Complexity: O(n) for n UTF-8 bytes; one allocation.
  private static func enclosed(_ text: String, by mark: Unicode.Scalar) -> String {
    var result = String()
    result.reserveCapacity(text.utf8.count + 2)
    result.unicodeScalars.append(mark)
    if text.utf8.contains(UInt8(mark.value)) {
      for scalar in text.unicodeScalars {
        if scalar == mark { result.unicodeScalars.append(mark) }
        result.unicodeScalars.append(scalar)
      }
    } else {
      result += text
    }
    result.unicodeScalars.append(mark)
    return result
  }

  /// A bytea literal.
  static func literal(bytes: some Sequence<UInt8>) -> String {
    var text = "'\\x"
    let digits = Array("0123456789abcdef".utf8)
    var hex: [UInt8] = []
    for byte in bytes {
      hex.append(digits[Int(byte >> 4)])
      hex.append(digits[Int(byte & 15)])
    }
    text += String(decoding: hex, as: UTF8.self)
    return text + "'::bytea"
  }

  /// The SQL type of an attribute's values.
  static func sqlType(_ type: ValueType) -> String {
    switch type {
    case .bool: "boolean"
    case .int: "bigint"
    case .uint: "numeric(20,0)"
    case .double: "double precision"
    case .string: "text"
    // Seconds since 2001-01-01 as Swift's Date holds them: exact, unlike timestamptz's
    // microseconds.
    case .date: "double precision"
    case .uuid: "uuid"
    case .url: "text"
    case .data: "bytea"
    case .decimal: "numeric"
    case .composite, .array: "bytea"
    }
  }

  /// A value of `type` as an SQL literal.
  static func literal(_ value: ModelValue, type: ValueType) -> String {
    switch (value, type) {
    case (.null, _): return "NULL"
    case (.bool(let value), _): return value ? "true" : "false"
    case (.int(let value), _): return String(value)
    case (.uint(let value), _): return String(value)
    case (.double(let value), _): return double(value)
    case (.string(let value), _): return literal(value)
    case (.date(let value), _): return double(value.timeIntervalSinceReferenceDate)
    case (.uuid(let value), _): return "'\(uuidText(value))'::uuid"
    case (.url(let value), _): return literal(value.absoluteString)
    case (.data(let value), .data), (.data(let value), .composite): return literal(bytes: value)
    case (.decimal(let value), _):
      return value.isNaN ? "'NaN'::numeric" : "'\(value.description)'::numeric"
    case (_, .array): return literal(bytes: value.encodedBytes)
    default: return literal(bytes: value.encodedBytes)
    }
  }

  /// A value of `type` as a statement parameter in PostgreSQL's text format, `nil` for NULL:
  /// what ``literal(_:type:)`` writes between its quotes, and the server reads it the same
  /// way, as the type of the column it goes to.
  static func parameter(_ value: ModelValue, type: ValueType) -> String? {
    switch (value, type) {
    case (.null, _): return nil
    case (.bool(let value), _): return value ? "true" : "false"
    case (.int(let value), _): return String(value)
    case (.uint(let value), _): return String(value)
    case (.double(let value), _): return doubleText(value)
    case (.string(let value), _): return value
    case (.date(let value), _): return doubleText(value.timeIntervalSinceReferenceDate)
    case (.uuid(let value), _): return uuidText(value)
    case (.url(let value), _): return value.absoluteString
    case (.data(let value), .data), (.data(let value), .composite): return hex(value)
    case (.decimal(let value), _): return value.isNaN ? "NaN" : value.description
    case (_, .array): return hex(value.encodedBytes)
    default: return hex(value.encodedBytes)
    }
  }

  /// `values` as a `bigint[]` parameter in PostgreSQL's array text format (`{1,2,3}`).
  ///
  /// Written digit by digit into one buffer: a save sends its identifiers this way.
  static func bigintArray(_ values: [Int64]) -> String {
    // At most 20 bytes a value (`-9223372036854775808`) and its comma, then the braces.
    String(unsafeUninitializedCapacity: values.count * 21 + 2) { buffer in
      var end = 0
      buffer[end] = UInt8(ascii: "{")
      end += 1
      for (index, value) in values.enumerated() {
        if index > 0 {
          buffer[end] = UInt8(ascii: ",")
          end += 1
        }
        if value < 0 {
          buffer[end] = UInt8(ascii: "-")
          end += 1
        }
        var magnitude = value.magnitude
        let start = end
        repeat {
          buffer[end] = UInt8(ascii: "0") + UInt8(magnitude % 10)
          magnitude /= 10
          end += 1
        } while magnitude > 0
        buffer[start..<end].reverse()
      }
      buffer[end] = UInt8(ascii: "}")
      return end + 1
    }
  }

  /// `uuid` as ``UUID/uuidString`` writes it (upper-case hexadecimal digits in groups of 8, 4,
  /// 4, 4 and 12), without its formatting through `snprintf`.
  static func uuidText(_ uuid: UUID) -> String {
    let digits: StaticString = "0123456789ABCDEF"
    return withUnsafeBytes(of: uuid.uuid) { bytes in
      String(unsafeUninitializedCapacity: 36) { buffer in
        var end = 0
        for (index, byte) in bytes.enumerated() {
          if index == 4 || index == 6 || index == 8 || index == 10 {
            buffer[end] = UInt8(ascii: "-")
            end += 1
          }
          buffer[end] = digits.utf8Start[Int(byte >> 4)]
          buffer[end + 1] = digits.utf8Start[Int(byte & 15)]
          end += 2
        }
        return end
      }
    }
  }

  /// A double in float8's text format, which also reads `NaN` and `±Infinity`.
  private static func doubleText(_ value: Double) -> String {
    if value.isNaN { return "NaN" }
    if value.isInfinite { return value < 0 ? "-Infinity" : "Infinity" }
    return value.description
  }

  /// Bytes in bytea's hex text format: `\x` and two digits a byte.
  static func hex(_ bytes: some Sequence<UInt8>) -> String {
    let digits = Array("0123456789abcdef".utf8)
    var text: [UInt8] = [0x5C, 0x78]
    text.reserveCapacity(2 + bytes.underestimatedCount * 2)
    for byte in bytes {
      text.append(digits[Int(byte >> 4)])
      text.append(digits[Int(byte & 15)])
    }
    return String(decoding: text, as: UTF8.self)
  }

  private static func double(_ value: Double) -> String {
    if value.isNaN { return "'NaN'::float8" }
    if value.isInfinite { return value < 0 ? "'-Infinity'::float8" : "'Infinity'::float8" }
    return "'\(value)'::float8"
  }

  /// The value of `type` a field's text holds, or `nil` when it cannot hold one.
  static func value(_ field: UnsafePointer<CChar>?, type: ValueType) -> ModelValue? {
    guard let field else { return .null }
    switch type {
    case .bool: return field[0] == 0x74 ? .bool(true) : .bool(false)
    case .int: return Int64(String(cString: field)).map(ModelValue.int)
    case .uint: return UInt64(String(cString: field)).map(ModelValue.uint)
    case .double: return Double(String(cString: field)).map(ModelValue.double)
    case .string: return .string(String(cString: field))
    case .date:
      return Double(String(cString: field)).map {
        .date(Date(timeIntervalSinceReferenceDate: $0))
      }
    case .uuid: return UUID(uuidString: String(cString: field)).map(ModelValue.uuid)
    case .url: return URL(string: String(cString: field)).map(ModelValue.url)
    case .decimal:
      return Decimal(string: String(cString: field), locale: nil).map(ModelValue.decimal)
    case .data, .composite:
      return bytes(field).map { .data(Data($0)) }
    case .array:
      guard let bytes = bytes(field) else { return nil }
      return try? ModelValue(encoded: bytes, source: "PostgreSQL")
    }
  }

  /// The bytes of a bytea field in hex output format (`\x0a1b…`).
  static func bytes(_ field: UnsafePointer<CChar>) -> [UInt8]? {
    guard field[0] == 0x5C, field[1] == 0x78 else { return nil }
    let length = strlen(field)
    guard length % 2 == 0 else { return nil }
    var result: [UInt8] = []
    result.reserveCapacity((length - 2) / 2)
    func nibble(_ c: CChar) -> UInt8? {
      switch UInt8(bitPattern: c) {
      case 0x30...0x39: UInt8(bitPattern: c) - 0x30
      case 0x61...0x66: UInt8(bitPattern: c) - 0x61 + 10
      case 0x41...0x46: UInt8(bitPattern: c) - 0x41 + 10
      default: nil
      }
    }
    var index = 2
    while index < length {
      guard let high = nibble(field[index]), let low = nibble(field[index + 1]) else { return nil }
      result.append(high << 4 | low)
      index += 2
    }
    return result
  }

  /// The statements that create the table of `entity` (with its inherited columns), its
  /// to-many join tables, unique constraints and declared indexes; `single` says which
  /// destinations are one concrete table (a to-one toward one gets a foreign key).
  static func createStatements(
    for entity: ResolvedEntity, in catalog: SchemaCatalog, single: (String) -> Bool
  ) -> [String] {
    let name = entity.name
    var columns = ["id bigint PRIMARY KEY", "_version bigint NOT NULL"]
    for attribute in entity.attributes {
      columns.append(
        "\(quoted(attribute.name)) \(sqlType(attribute.valueType))"
          + (attribute.isOptional ? "" : " NOT NULL"))
    }
    var statements: [String] = []
    for relationship in entity.relationships where !relationship.isToMany {
      columns.append("\(quoted(relationship.name)) bigint")
    }
    for names in uniqueColumns(of: entity, in: catalog) {
      columns.append(
        "UNIQUE (\(names.map(quoted).joined(separator: ", "))) DEFERRABLE INITIALLY DEFERRED")
    }
    statements.append(
      "CREATE TABLE IF NOT EXISTS \(table(name)) (\(columns.joined(separator: ", ")))")
    for relationship in entity.relationships where relationship.isToMany {
      statements.append(createJoinTable(name, relationship.name))
    }
    for relationship in entity.relationships
    where !relationship.isToMany && single(relationship.destination) {
      // Added after every table of the batch exists.
      statements.append(foreignKey(name, relationship))
    }
    for index in indexes(of: entity, in: catalog) {
      statements.append(
        "CREATE INDEX IF NOT EXISTS \(quoted(index.name)) ON \(table(name)) USING "
          + "\(index.method) (\(quoted(index.attribute)))")
    }
    return statements
  }

  /// The column lists of the unique constraints of the table of `entity`: one per unique
  /// attribute, one per compound constraint of its lineage.
  static func uniqueColumns(of entity: ResolvedEntity, in catalog: SchemaCatalog) -> [[String]] {
    entity.attributes.filter(\.isUnique).map { [$0.name] }
      + entity.lineage.flatMap { catalog.entities[$0].description.uniqueConstraints }.filter {
        $0.count > 1
      }
  }

  /// The statement that creates the join table of to-many `relationship` of `entity`.
  static func createJoinTable(_ entity: String, _ relationship: String) -> String {
    "CREATE TABLE IF NOT EXISTS \(joinTable(entity, relationship)) ("
      + "owner bigint NOT NULL REFERENCES \(table(entity))(id) ON DELETE CASCADE "
      + "DEFERRABLE INITIALLY DEFERRED, position integer NOT NULL, target bigint NOT NULL, "
      + "PRIMARY KEY (owner, position))"
  }

  /// The statement that adds the foreign key of to-one `relationship` of `entity` (toward a
  /// destination that is one table), unless it exists; a reference to an object deleted later
  /// reads as nil in the engine, as NULL here.
  static func foreignKey(_ entity: String, _ relationship: RelationshipDescription) -> String {
    "DO $$ BEGIN ALTER TABLE \(table(entity)) ADD CONSTRAINT "
      + "\(quoted("\(entity)_\(relationship.name)_fkey")) FOREIGN KEY (\(quoted(relationship.name))) "
      + "REFERENCES \(table(relationship.destination))(id) ON DELETE SET NULL "
      + "DEFERRABLE INITIALLY DEFERRED; EXCEPTION WHEN duplicate_object THEN NULL; END $$"
  }

  /// The declared indexes of the table of `entity` (its own and inherited, one per attribute):
  /// the index's name as PostgreSQL keeps it (at most 63 bytes), the attribute, the method.
  static func indexes(of entity: ResolvedEntity, in catalog: SchemaCatalog)
    -> [(name: String, attribute: String, method: String)]
  {
    var indexed: Set<String> = []
    var result: [(name: String, attribute: String, method: String)] = []
    for index in entity.lineage.flatMap({ catalog.entities[$0].description.indexes })
    where !indexed.contains(index.attribute) {
      indexed.insert(index.attribute)
      result.append(
        (
          identifier("\(entity.name).\(index.attribute).index"), index.attribute,
          index.kind == .hash ? "hash" : "btree"
        ))
    }
    return result
  }

  /// `name` cut as PostgreSQL cuts identifiers: to at most 63 bytes, whole characters.
  static func identifier(_ name: String) -> String {
    var bytes = 0
    var result = ""
    for character in name.unicodeScalars {
      bytes += String(character).utf8.count
      if bytes > 63 { break }
      result.unicodeScalars.append(character)
    }
    return result
  }
}
