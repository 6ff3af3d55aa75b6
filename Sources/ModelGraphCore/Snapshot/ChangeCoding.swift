import Foundation

/// The binary form of a ``CommittedChange`` that journal records and a snapshot's history
/// block carry (see the "Snapshot file format" article).
///
/// Layout: the author (a byte 0 or 1, then the string), the date (a `Double` of seconds since
/// 2001), a table of the names used (entity and attribute names: a count, then strings), then
/// the inserted objects, the updates, the deletions and the entities touched, each a count
/// followed by its items. An object is a name index, a row and a generation (`UInt32` each).
extension CommittedChange {
  func encode(into writer: inout ByteWriter) {
    if let author {
      writer.append(UInt8(1))
      writer.append(string: author)
    } else {
      writer.append(UInt8(0))
    }
    writer.append(date.timeIntervalSinceReferenceDate.bitPattern)
    // The objects are written first, naming each name by its index in order of first use; the
    // table of names is then put before them, once every name is known (no second buffer).
    let tableStart = writer.count
    var names = NameTable()
    func object(_ identifier: PersistentIdentifier) {
      writer.append(names.index(of: identifier.entityName))
      writer.append(identifier.row)
      writer.append(identifier.generation)
    }
    writer.append(UInt64(inserted.count))
    for identifier in inserted { object(identifier) }
    writer.append(UInt64(updated.count))
    for update in updated {
      object(update.identifier)
      writer.append(UInt8(update.relationshipsChanged ? 1 : 0))
      writer.append(UInt32(update.attributeCount))
      update.forEachAttributeByName { writer.append(names.index(of: $0)) }
    }
    writer.append(UInt64(deleted.count))
    for deletion in deleted {
      object(deletion.identifier)
      writer.append(UInt32(deletion.preservedValues.count))
      for (attribute, value) in deletion.preservedValues.sorted(by: { $0.key < $1.key }) {
        writer.append(names.index(of: attribute))
        value.encode(into: &writer)
      }
    }
    writer.append(UInt64(entities.count))
    for touch in entities {
      writer.append(UInt32(touch.entity))
      writer.append(names.index(of: touch.name))
      writer.append(UInt8((touch.insertedOrDeleted ? 1 : 0) | (touch.relationshipsChanged ? 2 : 0)))
      writer.append(UInt32(touch.attributes.count))
      for attribute in touch.attributes.sorted() { writer.append(names.index(of: attribute)) }
    }
    writer.insert(strings: names.names, at: tableStart)
  }

  /// The change of `version` decoded from `reader`.
  ///
  /// - Throws: ``SnapshotError`` naming the offset of what is impossible.
  static func decode(from reader: inout ByteReader, version: UInt64) throws -> CommittedChange {
    let author: String?
    switch try reader.read(UInt8.self) {
    case 0: author = nil
    case 1: author = try reader.readString()
    case let flag: throw reader.error("author flag \(flag)")
    }
    let seconds = Double(bitPattern: try reader.read(UInt64.self))
    guard seconds.isFinite else { throw reader.error("the date is not a finite number") }
    let nameCount = try reader.readCount(minimumSize: 4)
    var names: [String] = []
    names.reserveCapacity(nameCount)
    for _ in 0..<nameCount { names.append(try reader.readString()) }
    func name(_ reader: inout ByteReader) throws -> String {
      let start = reader.position
      let index = Int(try reader.read(UInt32.self))
      guard index < names.count else {
        throw reader.error("name \(index) of a table of \(names.count)", at: start)
      }
      return names[index]
    }
    func object(_ reader: inout ByteReader) throws -> PersistentIdentifier {
      let entity = try name(&reader)
      return PersistentIdentifier(
        entityName: entity, row: try reader.read(UInt32.self),
        generation: try reader.read(UInt32.self))
    }
    func attributes(_ reader: inout ByteReader) throws -> Set<String> {
      let count = Int(try reader.read(UInt32.self))
      try reader.require(count * 4)
      var set: Set<String> = []
      for _ in 0..<count { set.insert(try name(&reader)) }
      return set
    }
    var inserted: [PersistentIdentifier] = []
    for _ in 0..<(try reader.readCount(minimumSize: 12)) { inserted.append(try object(&reader)) }
    var updated: [Update] = []
    for _ in 0..<(try reader.readCount(minimumSize: 17)) {
      let identifier = try object(&reader)
      let flag = try reader.read(UInt8.self)
      guard flag <= 1 else { throw reader.error("update flag \(flag)") }
      updated.append(
        Update(
          identifier: identifier, attributes: try attributes(&reader),
          relationshipsChanged: flag == 1
        ))
    }
    var deleted: [Deletion] = []
    for _ in 0..<(try reader.readCount(minimumSize: 16)) {
      let identifier = try object(&reader)
      let count = Int(try reader.read(UInt32.self))
      try reader.require(count * 5)
      var values: [String: ModelValue] = [:]
      for _ in 0..<count {
        let attribute = try name(&reader)
        values[attribute] = try ModelValue.decode(from: &reader)
      }
      deleted.append(Deletion(identifier: identifier, preservedValues: values))
    }
    var entities: [EntityTouch] = []
    for _ in 0..<(try reader.readCount(minimumSize: 13)) {
      let entity = Int(try reader.read(UInt32.self))
      let entityName = try name(&reader)
      let flags = try reader.read(UInt8.self)
      guard flags <= 3 else { throw reader.error("entity flags \(flags)") }
      entities.append(
        EntityTouch(
          entity: entity, name: entityName, insertedOrDeleted: flags & 1 != 0,
          attributes: try attributes(&reader), relationshipsChanged: flags & 2 != 0))
    }
    return CommittedChange(
      version: version, author: author, date: Date(timeIntervalSinceReferenceDate: seconds),
      inserted: inserted, updated: updated, deleted: deleted, entities: entities)
  }
}

/// A snapshot's history block (format 5): the newest version whose change is not kept, a
/// count, and per kept change its version and its ``CommittedChange`` encoding.
extension KeptHistory {
  func encode(into writer: inout ByteWriter) {
    writer.append(droppedThrough)
    writer.append(UInt64(changes.count))
    for change in changes {
      writer.append(change.version)
      change.encode(into: &writer)
    }
  }

  /// The history of a snapshot of version `number`.
  static func decode(from reader: inout ByteReader, number: UInt64) throws -> KeptHistory {
    let dropped = try reader.read(UInt64.self)
    guard dropped <= number else {
      throw reader.error(
        "history dropped through version \(dropped), past the snapshot's \(number)")
    }
    var changes: [CommittedChange] = []
    var expected = dropped + 1
    for _ in 0..<(try reader.readCount(minimumSize: 57)) {
      let start = reader.position
      let version = try reader.read(UInt64.self)
      guard version >= expected, version <= number,
        changes.isEmpty || version == expected
      else {
        throw reader.error(
          "a change of version \(version) where \(expected) to \(number) belongs", at: start)
      }
      changes.append(try CommittedChange.decode(from: &reader, version: version))
      expected = version + 1
    }
    return KeptHistory(changes: changes, droppedThrough: dropped)
  }
}

/// The names a ``CommittedChange`` encoding uses, numbered in order of first use.
///
/// A change names few entities and attributes, so a name is looked up by comparing it with
/// the names so far (the same string compares by its storage first), without hashing; past
/// ``linearLimit`` names a dictionary takes over.
struct NameTable {
  /// The names, by index.
  private(set) var names: [String] = []
  private var indexes: [String: UInt32] = [:]
  /// The most names looked up by comparison.
  static let linearLimit = 16

  /// The index of `name`, which is added when new.
  mutating func index(of name: String) -> UInt32 {
    if names.count <= Self.linearLimit {
      for index in names.indices where names[index] == name { return UInt32(index) }
      if names.isEmpty { names.reserveCapacity(8) }
      names.append(name)
      if names.count > Self.linearLimit {
        for (index, known) in names.enumerated() { indexes[known] = UInt32(index) }
      }
      return UInt32(names.count - 1)
    }
    if let index = indexes[name] { return index }
    let index = UInt32(names.count)
    names.append(name)
    indexes[name] = index
    return index
  }
}
