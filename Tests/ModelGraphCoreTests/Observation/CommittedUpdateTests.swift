import Testing

@testable import ModelGraphCore

/// A save's ``CommittedChange/Update``s record the written slots and name them when asked.
@Suite("Committed change: updated objects")
struct CommittedUpdateTests {
  @Test("each update names exactly the attributes written, the entity touch their union")
  func updatesNameTheirAttributes() throws {
    let store = try Fixture.makeStore()
    let session = Session(store: store)
    session.recordsChanges = true
    let plain = session.insert(entity: Fixture.trip, name: "a")
    let business = session.insert(entity: Fixture.business, name: "b")
    let other = session.insert(entity: Fixture.trip, name: "c")
    session.set("Acme", slot: Fixture.company, of: business)
    try session.save()

    session.set(Int64(3), slot: Fixture.days, of: plain)
    session.set("x" as String?, slot: Fixture.note, of: plain)
    session.set("Initech", slot: Fixture.company, of: business)
    session.set("renamed", slot: Fixture.name, of: other)
    session.set(Int64(4), slot: Fixture.days, of: other)
    session.delete(other)
    try session.save()
    let change = try #require(session.lastChange)
    let byName = Dictionary(
      uniqueKeysWithValues: change.updated.map { ($0.identifier.entityName, $0) })
    #expect(change.updated.count == 2, "the deleted object is listed as deleted, not updated")
    #expect(byName["Trip"]?.identifier.row == plain.row)
    #expect(byName["Trip"]?.attributes == ["days", "note"])
    #expect(byName["BusinessTrip"]?.identifier.row == business.row)
    #expect(byName["BusinessTrip"]?.attributes == ["company"])
    #expect(change.deleted.map(\.identifier.row) == [other.row])
    let touched = Dictionary(uniqueKeysWithValues: change.entities.map { ($0.name, $0) })
    #expect(touched["Trip"]?.attributes == ["days", "note"])
    #expect(touched["BusinessTrip"]?.attributes == ["company"])
  }

  @Test("an update made from slots equals and hashes as one made from the same names")
  func slotsAndNamesAgree() {
    let identifier = PersistentIdentifier(entityName: "Trip", row: 4, generation: 1)
    let names = CommittedChange.AttributeNames(["name", "days", "note"])
    let fromSlots = CommittedChange.Update(
      identifier: identifier, slots: .of(0, 2), of: names, relationshipsChanged: true)
    let fromNames = CommittedChange.Update(
      identifier: identifier, attributes: ["name", "note"], relationshipsChanged: true)
    #expect(fromSlots.attributes == ["name", "note"])
    #expect(fromSlots == fromNames && fromSlots.hashValue == fromNames.hashValue)
    let other = CommittedChange.Update(
      identifier: identifier, slots: .of(1), of: names, relationshipsChanged: true)
    #expect(other != fromNames)
  }
}
