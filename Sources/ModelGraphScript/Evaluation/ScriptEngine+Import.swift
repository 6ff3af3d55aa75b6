import Foundation
import ModelGraphCore

extension ScriptEngine {
  /// `.import FILE Class`: inserts an object of `Class` per CSV record (after a header row of
  /// property names) or per object of a JSON array. Relationship columns name objects by
  /// identifier (`Trip/0.0`), by the destination's first unique attribute, or by the attribute
  /// the column names (`trip.name`), objects of the same file included (a manager column of
  /// employees); to-many ones take a JSON array or `;`-separated CSV text.
  ///
  /// An empty CSV field or a JSON `null` of an attribute with a default takes the default.
  /// A bad record imports nothing: attributes are converted first, then the objects inserted,
  /// then every relationship resolved before any is set. The objects are unsaved, like
  /// inserted ones.
  func importFile(_ path: String, into className: String, at location: SourceLocation) throws {
    let entity = try self.entity(className, at: location)
    guard let data = FileManager.default.contents(atPath: path) else {
      throw ScriptError("cannot read \(path): \(Self.whyUnreadable(path))", at: location)
    }
    let records = try importRecords(data, path: path, at: location)
    let defaults = schema.defaultValues(for: entity, in: catalog)
    var rows: [ImportRow] = []
    for (place, fields) in records {
      var row = ImportRow(place: place)
      // The column that gave each property: a second one ('trip' and 'trip.name') is refused,
      // not left to override the first.
      var givenBy: [String: String] = [:]
      for (column, value) in fields {
        let parts = column.split(separator: ".", maxSplits: 1).map(String.init)
        let name = parts[0]
        if let first = givenBy.updateValue(column, forKey: name) {
          throw ScriptError(
            "\(place): \(name) is given twice, as '\(first)' and as '\(column)'", at: location)
        }
        if let slot = entity.attributeSlot(named: name), parts.count == 1 {
          let attribute = entity.attributes[slot]
          if case .composite(let typeName) = attribute.valueType {
            if let converted = try importedComposite(
              value, typeName: typeName, attribute: attribute, hasDefault: defaults[name] != nil,
              place: place, at: location)
            {
              row.attributes.append((slot, converted))
            }
            row.given.insert(name)
            continue
          }
          guard var converted = value.modelValue(as: attribute.valueType) else {
            throw ScriptError(
              "\(place): \(name) is \(attribute.valueType);"
                + " \(value.lookupText.map { "'\($0)'" } ?? "the value") is not one", at: location)
          }
          if attribute.isFloat32 {
            do {
              converted = try ValueCoercion.nearestFloat(converted, for: attribute, at: location)
            } catch let error as ScriptError {
              throw ScriptError("\(place): \(error.message)", at: location)
            }
          }
          // An empty field (or null) of an attribute with a default takes the default.
          if converted.isNull, !attribute.isOptional, defaults[name] != nil { continue }
          if converted.isNull, !attribute.isOptional {
            throw ScriptError(
              "\(place): \(name) is \(attribute.valueType), not optional; the value is missing",
              at: location)
          }
          row.attributes.append((slot, converted))
        } else if let slot = entity.relationshipSlot(named: name) {
          row.relationships.append((slot, value, parts.count > 1 ? parts[1] : nil))
        } else {
          throw ScriptError(
            "\(place): \(entity.name) has no attribute or relationship '\(column)'", at: location)
        }
        row.given.insert(name)
      }
      rows.append(row)
    }
    var inserted: [ObjectKey] = []
    do {
      for row in rows {
        inserted.append(
          try insertObject(
            entity, attributes: row.attributes, relationships: [], given: row.given))
      }
      var lookups = RelatedLookups()
      var links: [(key: ObjectKey, slot: Int, targets: [ObjectKey])] = []
      for (row, key) in zip(rows, inserted) {
        for (slot, value, attribute) in row.relationships {
          do {
            let targets = try lookups.objects(
              value, for: entity.relationships[slot], by: attribute, engine: self)
            links.append((key, slot, targets))
          } catch let failure as ImportFailure {
            throw ScriptError("\(row.place): \(failure.message)", at: location)
          }
        }
      }
      for link in links { setRelationship(of: link.key, slot: link.slot, to: link.targets) }
    } catch {
      // Nothing points at the new objects yet: deleting them takes the import back.
      for key in inserted { session.delete(key) }
      throw error
    }
    output("\(rows.count) object\(rows.count == 1 ? "" : "s") imported into \(entity.name)\n")
  }

  /// The value of a Codable attribute in a record: a JSON object (in a JSON file), or its JSON
  /// text (in a CSV field or a JSON string, as `.mode json` writes it), checked against the
  /// shape of the stored values as a `{field: value}` literal is; `nil` to take the default.
  private func importedComposite(
    _ value: ImportValue, typeName: String, attribute: AttributeDescription, hasDefault: Bool,
    place: String, at location: SourceLocation
  ) throws -> ModelValue? {
    var json = value
    switch value {
    case .text(let text), .string(let text):
      guard let parsed = try? ImportJSONReader.value(text.utf8) else {
        throw ScriptError(
          "\(place): \(attribute.name) is a Codable value (\(typeName)); '\(text)' is not JSON",
          at: location)
      }
      json = parsed
    default: break
    }
    if case .null = json, !attribute.isOptional, hasDefault { return nil }
    do {
      return try compositeValue(
        Self.literal(json, at: location), typeName: typeName, attribute: attribute, self: nil)
    } catch let error as ScriptError {
      throw ScriptError("\(place): \(error.message)", at: location)
    }
  }

  /// A JSON value as the literal that writes it.
  private static func literal(_ value: ImportValue, at location: SourceLocation) -> Expression {
    switch value {
    case .null: Expression(.literal(.null), at: location)
    case .bool(let flag): Expression(.literal(.bool(flag)), at: location)
    case .int(let number): Expression(.literal(.int(number)), at: location)
    case .double(let number): Expression(.literal(.double(number)), at: location)
    case .number(let text): Expression(.literal(DecimalMath.number(text)), at: location)
    case .string(let text), .text(let text): Expression(.literal(.string(text)), at: location)
    case .array(let values):
      Expression(.list(values.map { literal($0, at: location) }), at: location)
    case .object(let fields):
      Expression(
        .object(
          fields.keys.sorted().map {
            ObjectField(name: $0, at: location, value: literal(fields[$0]!, at: location))
          }), at: location)
    }
  }

  /// The records of a CSV or JSON file, each with where it is (`f.csv:3`, `f.json, object 2`) and its
  /// fields by column name.
  private func importRecords(_ data: Data, path: String, at location: SourceLocation) throws
    -> [(String, [(String, ImportValue)])]
  {
    var text = String(decoding: data, as: UTF8.self)
    // A byte order mark (spreadsheets write one) is no part of the first field or the array.
    if text.unicodeScalars.first == "\u{FEFF}" { text.unicodeScalars.removeFirst() }
    if text.drop(while: \.isWhitespace).first == "[" {
      let objects: [ImportValue]
      do throws(ImportJSONReader.Failure) {
        guard case .array(let elements) = try ImportJSONReader.value(data) else {
          throw ImportJSONReader.Failure(message: "not an array", offset: 0)
        }
        objects = elements
      } catch {
        let (line, column) = Self.lineAndColumn(of: error.offset, in: data)
        throw ScriptError(
          "\(path) starts with '[' but is not a JSON array (it does not parse: \(error.message)"
            + " at line \(line), column \(column)); .import reads a JSON array of objects or CSV"
            + " with a header row", at: location)
      }
      return try objects.enumerated().map { index, object in
        guard case .object(let fields) = object else {
          throw ScriptError("\(path): element \(index + 1) is not a JSON object", at: location)
        }
        return (
          "\(path), object \(index + 1)",
          fields.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
        )
      }
    }
    let records: [CSVReader.Record]
    do {
      records = try CSVReader.records(text)
    } catch let error as CSVError {
      throw ScriptError("\(path):\(error.line): \(error.message)", at: location)
    }
    guard let header = records.first else {
      throw ScriptError("\(path) is empty; it needs a header row of property names", at: location)
    }
    let columns = header.fields.map { $0 ?? "" }
    if let blank = columns.firstIndex(of: "") {
      throw ScriptError("\(path): column \(blank + 1) of the header has no name", at: location)
    }
    var columnOf: [String: Int] = [:]
    for (index, column) in columns.enumerated() {
      let property = String(column.prefix { $0 != "." })
      if let first = columnOf.updateValue(index, forKey: property) {
        throw ScriptError(
          "\(path): columns \(first + 1) ('\(columns[first])') and \(index + 1) ('\(column)') of "
            + "the header both give \(property)", at: location)
      }
    }
    return try records.dropFirst().map { record in
      guard record.fields.count == columns.count else {
        throw ScriptError(
          "\(path):\(record.line): \(record.fields.count) \(record.fields.count == 1 ? "field" : "fields"), "
            + "but the header has \(columns.count)",
          at: location)
      }
      return (
        "\(path):\(record.line)",
        zip(columns, record.fields).map { ($0, $1.map { .text($0) } ?? .null) }
      )
    }
  }
}

extension ScriptEngine {
  /// The line and column (from 1, in bytes) of byte `offset` of `data`.
  fileprivate static func lineAndColumn(of offset: Int, in data: Data) -> (Int, Int) {
    var (line, lineStart) = (1, 0)
    for (index, byte) in data.prefix(offset).enumerated() where byte == 0x0A {
      line += 1
      lineStart = index + 1
    }
    return (line, offset - lineStart + 1)
  }
}

/// One record of an import, converted: where it is, its attribute values, its relationship
/// columns (resolved once every record is inserted) and the property names it gives.
struct ImportRow {
  var place: String
  var attributes: [(slot: Int, value: ModelValue)] = []
  var relationships: [(slot: Int, value: ImportValue, attribute: String?)] = []
  var given: Set<String> = []
}

/// Why one value of an import names no object.
struct ImportFailure: Error {
  var message: String
}

/// Objects of a class by an attribute's value, built once per class and attribute.
struct RelatedLookups {
  private var tables: [String: [ModelValue: [ObjectKey]]] = [:]

  /// The objects `value` names for `relationship`: identifiers, or values of `attribute` (the
  /// destination's first unique attribute when `nil`).
  mutating func objects(
    _ value: ImportValue, for relationship: RelationshipDescription, by attribute: String?,
    engine: ScriptEngine
  ) throws -> [ObjectKey] {
    var items: [ImportValue]
    switch value {
    case .null: items = []
    case .array(let values): items = values
    case .text(let text) where relationship.isToMany:
      items = text.split(separator: ";").map {
        .text(String($0).trimmingCharacters(in: .whitespaces))
      }
    default: items = [value]
    }
    if !relationship.isToMany, items.count > 1 {
      throw ImportFailure(
        message: "\(relationship.name) is to-one but names \(items.count) objects")
    }
    if !relationship.isToMany, items.isEmpty, !relationship.isOptional {
      throw ImportFailure(message: "\(relationship.name) is not optional; the value is missing")
    }
    let catalog = engine.catalog
    let destination = catalog.entity(named: relationship.destination)!
    return try items.map { item in
      guard let text = item.lookupText else {
        throw ImportFailure(
          message: "\(relationship.name) needs an identifier or an attribute value, not a JSON"
            + " array or object")
      }
      if attribute == nil, let key = engine.objectKey(identifier: text) {
        guard engine.session.contains(key),
          catalog.entities[Int(key.entity)].isKind(of: destination)
        else {
          throw ImportFailure(message: "\(text) is not a \(destination.name) in the store")
        }
        return key
      }
      guard let name = attribute ?? destination.attributes.first(where: \.isUnique)?.name,
        let slot = destination.attributeSlot(named: name)
      else {
        throw ImportFailure(
          message:
            "'\(text)' is not an identifier (\(destination.name)/0.0) and \(destination.name)"
            + " has no unique attribute; name one in the column: \(relationship.name).attribute")
      }
      let type = destination.attributes[slot].valueType
      guard let lookup = ImportValue.text(text).modelValue(as: type) else {
        throw ImportFailure(
          message: "\(destination.name).\(name) is \(type); '\(text)' is not one")
      }
      let found = try table(destination, name, engine)[lookup] ?? []
      guard found.count == 1 else {
        throw ImportFailure(
          message: found.isEmpty
            ? "no \(destination.name) has \(name) '\(text)'"
            : "\(found.count) \(destination.name) objects have \(name) '\(text)'")
      }
      return found[0]
    }
  }

  private mutating func table(
    _ entity: ResolvedEntity, _ attribute: String, _ engine: ScriptEngine
  ) throws -> [ModelValue: [ObjectKey]] {
    let id = "\(entity.name).\(attribute)"
    if let table = tables[id] { return table }
    var table: [ModelValue: [ObjectKey]] = [:]
    let evaluator = engine.evaluator
    for key in try engine.keys(
      entity: entity.index, isExact: false, condition: nil, sort: [], offset: 0, limit: nil)
    {
      table[evaluator.attribute(attribute, of: key), default: []].append(key)
    }
    tables[id] = table
    return table
  }
}

extension ScriptEngine {
  /// The key an identifier (`Trip/0.0`) names, if it names one of a known class.
  func objectKey(identifier text: String) -> ObjectKey? {
    let parts = text.split(separator: "/")
    guard parts.count == 2, let entity = catalog.entity(named: String(parts[0])) else { return nil }
    let numbers = parts[1].split(separator: ".")
    guard numbers.count == 2, let row = Int(numbers[0]), let generation = UInt32(numbers[1]) else {
      return nil
    }
    return ObjectKey(entity: entity.index, row: row, generation: generation)
  }
}
