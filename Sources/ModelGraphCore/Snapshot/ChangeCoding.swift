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
    var names: [String] = []
    var indexes: [String: UInt32] = [:]
    func name(_ text: String) -> UInt32 {
      if let index = indexes[text] { return index }
      let index = UInt32(names.count)
      names.append(text)
      indexes[text] = index
      return index
    }
    var body = ByteWriter()
    body.lengthLimit = writer.lengthLimit
    func object(_ identifier: PersistentIdentifier) {
      body.append(name(identifier.entityName))
      body.append(identifier.row)
      body.append(identifier.generation)
    }
    func attributes(_ set: Set<String>) {
      body.append(UInt32(set.count))
      for attribute in set.sorted() { body.append(name(attribute)) }
    }
    body.append(UInt64(inserted.count))
    for identifier in inserted { object(identifier) }
    body.append(UInt64(updated.count))
    for update in updated {
      object(update.identifier)
      body.append(UInt8(update.relationshipsChanged ? 1 : 0))
      attributes(update.attributes)
    }
    body.append(UInt64(deleted.count))
    for deletion in deleted {
      object(deletion.identifier)
      body.append(UInt32(deletion.preservedValues.count))
      for (attribute, value) in deletion.preservedValues.sorted(by: { $0.key < $1.key }) {
        body.append(name(attribute))
        value.encode(into: &body)
      }
    }
    body.append(UInt64(entities.count))
    for touch in entities {
      body.append(UInt32(touch.entity))
      body.append(name(touch.name))
      body.append(UInt8((touch.insertedOrDeleted ? 1 : 0) | (touch.relationshipsChanged ? 2 : 0)))
      attributes(touch.attributes)
    }
    if let author {
      writer.append(UInt8(1))
      writer.append(string: author)
    } else {
      writer.append(UInt8(0))
    }
    writer.append(date.timeIntervalSinceReferenceDate.bitPattern)
    writer.append(UInt64(names.count))
    for text in names { writer.append(string: text) }
    writer.bytes.append(contentsOf: body.bytes)
    if let oversized = body.oversized { writer.oversized = writer.oversized ?? oversized }
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
