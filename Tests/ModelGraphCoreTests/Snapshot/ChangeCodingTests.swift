import Foundation
import Testing

@testable import ModelGraphCore

@Suite("The CommittedChange encoding of journal records and the history block")
struct ChangeCodingTests {
  /// The encoding as it was written before it named attributes by slot: a dictionary of names
  /// and a set of names per update, sorted. The format did not change, so neither may a byte.
  private func referenceEncoding(_ change: CommittedChange, lengthLimit: Int) -> ByteWriter {
    var writer = ByteWriter()
    writer.lengthLimit = lengthLimit
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
    body.lengthLimit = lengthLimit
    func object(_ identifier: PersistentIdentifier) {
      body.append(name(identifier.entityName))
      body.append(identifier.row)
      body.append(identifier.generation)
    }
    func attributes(_ set: Set<String>) {
      body.append(UInt32(set.count))
      for attribute in set.sorted() { body.append(name(attribute)) }
    }
    body.append(UInt64(change.inserted.count))
    for identifier in change.inserted { object(identifier) }
    body.append(UInt64(change.updated.count))
    for update in change.updated {
      object(update.identifier)
      body.append(UInt8(update.relationshipsChanged ? 1 : 0))
      attributes(update.attributes)
    }
    body.append(UInt64(change.deleted.count))
    for deletion in change.deleted {
      object(deletion.identifier)
      body.append(UInt32(deletion.preservedValues.count))
      for (attribute, value) in deletion.preservedValues.sorted(by: { $0.key < $1.key }) {
        body.append(name(attribute))
        value.encode(into: &body)
      }
    }
    body.append(UInt64(change.entities.count))
    for touch in change.entities {
      body.append(UInt32(touch.entity))
      body.append(name(touch.name))
      body.append(UInt8((touch.insertedOrDeleted ? 1 : 0) | (touch.relationshipsChanged ? 2 : 0)))
      attributes(touch.attributes)
    }
    if let author = change.author {
      writer.append(UInt8(1))
      writer.append(string: author)
    } else {
      writer.append(UInt8(0))
    }
    writer.append(change.date.timeIntervalSinceReferenceDate.bitPattern)
    writer.append(UInt64(names.count))
    for text in names { writer.append(string: text) }
    writer.bytes.append(contentsOf: body.bytes)
    if let oversized = body.oversized { writer.oversized = writer.oversized ?? oversized }
    return writer
  }

  /// What a change says, as comparable text.
  private func summary(_ change: CommittedChange) -> String {
    "\(change.version) \(change.author ?? "-") \(change.date.timeIntervalSinceReferenceDate) "
      + "\(change.inserted) "
      + "\(change.updated.map { ($0.identifier, $0.attributes.sorted(), $0.relationshipsChanged) }) "
      + "\(change.deleted.map { ($0.identifier, $0.preservedValues.sorted { $0.key < $1.key }) }) "
      + "\(change.entities.map { ($0.entity, $0.name, $0.insertedOrDeleted, $0.attributes.sorted(), $0.relationshipsChanged) })"
  }

  /// A change naming `attributeCount` attributes (named out of order, one of them like an
  /// entity), with updates by slot and by name, a deletion and touched entities.
  private func change(attributeCount: Int, author: String?) -> CommittedChange {
    let attributeNames = (0..<attributeCount).map {
      $0 == 2 ? "Trip" : "a\((attributeCount - $0) * 7 % 101)"
    }
    let names = CommittedChange.AttributeNames(attributeNames)
    func trip(_ row: UInt32) -> PersistentIdentifier {
      PersistentIdentifier(entityName: "Trip", row: row, generation: row * 3 + 1)
    }
    var updates: [CommittedChange.Update] = []
    for row in UInt32(0)..<5 {
      var slots = SlotSet()
      for slot in 0..<attributeCount where (slot + Int(row)) % 3 == 0 { slots.insert(slot) }
      updates.append(
        CommittedChange.Update(
          identifier: trip(row + 10), slots: slots, of: names, relationshipsChanged: row == 2))
    }
    updates.append(
      CommittedChange.Update(
        identifier: PersistentIdentifier(entityName: "Activity", row: 4, generation: 2),
        attributes: ["title", "done", "Trip"], relationshipsChanged: false))
    updates.append(
      CommittedChange.Update(
        identifier: trip(30), slots: SlotSet(), of: names, relationshipsChanged: true))
    return CommittedChange(
      version: 12, author: author, date: Date(timeIntervalSinceReferenceDate: 1234.5),
      inserted: [
        trip(1), PersistentIdentifier(entityName: "Activity", row: 0, generation: 1), trip(2),
      ],
      updated: updates,
      deleted: [
        CommittedChange.Deletion(
          identifier: trip(7),
          preservedValues: ["zeta": .int(5), "name": .string("x"), "a7": .null])
      ],
      entities: [
        CommittedChange.EntityTouch(
          entity: 0, name: "Trip", insertedOrDeleted: true,
          attributes: Set(attributeNames.prefix(4)), relationshipsChanged: true),
        CommittedChange.EntityTouch(
          entity: 3, name: "Activity", insertedOrDeleted: false, attributes: ["title", "done"],
          relationshipsChanged: false),
      ])
  }

  @Test(
    "the encoding is byte for byte what it was, and decodes to the same change",
    arguments: [(3, "editor"), (9, nil), (40, "x"), (70, nil)] as [(Int, String?)])
  func sameBytes(attributeCount: Int, author: String?) throws {
    let change = change(attributeCount: attributeCount, author: author)
    var writer = ByteWriter()
    writer.append(UInt32(0xABCD_EF01))  // The encoding follows other bytes in a record.
    change.encode(into: &writer)
    var reference = ByteWriter()
    reference.append(UInt32(0xABCD_EF01))
    var encoded = referenceEncoding(change, lengthLimit: .max)
    reference.bytes += encoded.bytes
    #expect(writer.bytes == reference.bytes)
    #expect(writer.oversized == nil)
    let decoded = try writer.bytes.withUnsafeBytes { raw in
      var reader = ByteReader(raw, fileOffset: 0, path: "test", section: "history")
      #expect(try reader.read(UInt32.self) == 0xABCD_EF01)
      let decoded = try CommittedChange.decode(from: &reader, version: 12)
      #expect(reader.isAtEnd)
      return decoded
    }
    #expect(summary(decoded) == summary(change))
    // Slot 65 of 70 stands for every slot from 64 on, as the set of names says.
    if attributeCount == 70 {
      #expect(change.updated[1].attributes.contains("a\((70 - 65) * 7 % 101)"))
    }
  }

  @Test("a name longer than the length limit marks the writer oversized, as before")
  func oversizedName() {
    let change = change(attributeCount: 3, author: nil)
    var writer = ByteWriter()
    writer.lengthLimit = 3
    change.encode(into: &writer)
    #expect(writer.oversized == referenceEncoding(change, lengthLimit: 3).oversized)
    #expect(writer.oversized == 4)
  }
}
