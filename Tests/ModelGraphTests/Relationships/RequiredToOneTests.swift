import ModelGraph
import Testing

/// A ticket must belong to an event (a required to-one: `minimumModelCount: 1`); deleting the
/// event nullifies its tickets' reference, which the save then rejects.
class RQEvent: PersistentModel {
  @Attribute var title: String
  @Relationship(inverse: \RQTicket.event) var tickets: [RQTicket]

  convenience init(_ title: String) {
    self.init()
    self.title = title
  }
}

class RQTicket: PersistentModel {
  @Attribute var seat: String
  @Relationship(minimumModelCount: 1) var event: RQEvent?

  convenience init(_ seat: String, event: RQEvent? = nil) {
    self.init()
    self.seat = seat
    self.event = event
  }
}

@Suite("Relationships: required to-one")
struct RequiredToOneTests {
  @Test("the schema records a to-one with a minimum of 1 as required")
  func schemaRecordsTheMinimum() throws {
    let container = try makeInMemoryContainer(RQEvent.self, RQTicket.self)
    let ticket = try #require(container.store.catalog.entity(named: "RQTicket"))
    #expect(ticket.relationships.map(\.minimumModelCount) == [1])
  }

  @Test("a new object whose required to-one is unset fails the save; setting it fixes it")
  func unsetRequiredToOne() throws {
    let container = try makeInMemoryContainer(RQEvent.self, RQTicket.self)
    let context = ModelContext(container)
    let orphan = RQTicket("A1")
    context.insert(orphan)
    context.insert(RQTicket("A2", event: RQEvent("Opening")))
    let error = try #require(throws: ModelError.self) { try context.save() }
    #expect(error.violations.count == 1)
    let violation = try #require(error.violations.first)
    #expect(violation.entity == "RQTicket" && violation.property == "event")
    #expect(violation.identifier == orphan.persistentModelID)
    #expect(violation.rule.contains("required"))
    #expect(try ModelContext(container).fetchCount(FetchDescriptor<RQTicket>()) == 0)

    orphan.event = RQEvent("Closing")
    try context.save()
    #expect(try ModelContext(container).fetchCount(FetchDescriptor<RQTicket>()) == 2)
  }

  @Test("deleting the target nullifies the reference and the save names the saved ticket")
  func deletingTheTargetIsRejected() throws {
    let container = try makeInMemoryContainer(RQEvent.self, RQTicket.self)
    let context = ModelContext(container)
    let event = RQEvent("Gala")
    let ticket = RQTicket("B7", event: event)
    context.insert(ticket)
    try context.save()

    context.delete(event)
    let error = try #require(throws: ModelError.self) { try context.save() }
    #expect(error.violations.map(\.identifier) == [ticket.persistentModelID])
    context.rollback()
    #expect(ticket.event?.title == "Gala")
    #expect(event.tickets.map(\.seat) == ["B7"])
  }
}
