import Testing

@testable import ModelGraphCore

@Suite("Session graph rules")
struct SessionGraphTests {
  @Test("setting a to-one updates the to-many inverse, and moving it removes it from the old one")
  func inverseMaintenance() throws {
    let session = try GraphFixture.makeSession()
    let sales = session.insertDepartment("Sales")
    let support = session.insertDepartment("Support")
    let ann = session.insertEmployee("Ann", badge: 1)
    session.setRelationship(of: ann, slot: 0, to: [sales])
    #expect(session.relatedKeys(of: sales, slot: 0) == [ann])
    session.setRelationship(of: support, slot: 0, to: [ann])
    #expect(session.relatedKeys(of: ann, slot: 0) == [support])
    #expect(session.relatedKeys(of: sales, slot: 0) == [])
  }

  @Test("deleting applies cascade and reports every object deleted; nullify empties inverses")
  func deleteRules() throws {
    let session = try GraphFixture.makeSession()
    let sales = session.insertDepartment("Sales")
    let ann = session.insertEmployee("Ann", badge: 1)
    let bob = session.insertEmployee("Bob", badge: 2, entity: GraphFixture.manager)
    session.setRelationship(of: sales, slot: 0, to: [ann, bob])
    _ = try session.save()
    #expect(Set(session.deleteApplyingRules(sales)) == [sales, ann, bob])
    #expect(!session.contains(bob))
    #expect(session.validate().isEmpty)

    let other = try GraphFixture.makeSession()
    let dept = other.insertDepartment("Ops")
    let carl = other.insertEmployee("Carl", badge: 3)
    other.setRelationship(of: carl, slot: 0, to: [dept])
    #expect(other.deleteApplyingRules(carl) == [carl])
    #expect(other.relatedKeys(of: dept, slot: 0) == [])
  }

  @Test("validate lists a deny rule, a count limit, a missing value and both sides of a duplicate")
  func validationFindsEveryRule() throws {
    let session = try GraphFixture.makeSession()
    let sales = session.insertDepartment("Sales")
    let room = session.insert(entity: GraphFixture.room)
    session.set(Int64(101), slot: 0, of: room)
    session.setRelationship(of: room, slot: 0, to: [sales])
    _ = try session.save()

    _ = session.deleteApplyingRules(sales)
    let team = session.insertDepartment("Team")
    let members = (0..<4).map { session.insertEmployee("E\($0)", badge: Int64($0)) }
    session.setRelationship(of: team, slot: 0, to: members)
    let unset = session.insert(entity: GraphFixture.room)
    session.noteUnsetAttributes(SlotSet.of(0), of: unset)
    let twin1 = session.insertEmployee("Twin", badge: 9, entity: GraphFixture.manager)
    let twin2 = session.insertEmployee("Twin", badge: 9)

    let violations = session.validate()
    #expect(violations.contains { $0.rule == .deny && $0.key == sales && $0.property == "rooms" })
    #expect(violations.contains { $0.rule == .count && $0.key == team })
    #expect(violations.contains { $0.rule == .missingValue && $0.key == unset })
    let duplicates = violations.filter { $0.rule == .notUnique }
    #expect(Set(duplicates.map(\.key)) == [twin1, twin2])
    #expect(duplicates.allSatisfy { $0.property == "name+badge" })
    #expect(violations.count == 5)

    session.set(Int64(10), slot: 0, of: unset)
    session.noteAttributeSet(0, of: unset)
    #expect(!session.validate().contains { $0.rule == .missingValue })
  }

  @Test("an unset value clears when its object is deleted, and rollback forgets deny checks")
  func stateResets() throws {
    let session = try GraphFixture.makeSession()
    let room = session.insert(entity: GraphFixture.room)
    session.noteUnsetAttributes(SlotSet.of(0), of: room)
    session.delete(room)
    #expect(session.validate().isEmpty)

    let sales = session.insertDepartment("Sales")
    let kept = session.insert(entity: GraphFixture.room)
    session.set(Int64(1), slot: 0, of: kept)
    session.setRelationship(of: kept, slot: 0, to: [sales])
    _ = try session.save()
    _ = session.deleteApplyingRules(sales)
    #expect(!session.validate().isEmpty)
    session.rollback()
    #expect(session.validate().isEmpty)
    #expect(session.contains(sales))
  }

  @Test("an invalid unique constraint is a schema error naming the attribute")
  func invalidConstraint() throws {
    let store = Store()
    let error = try #require(throws: SchemaError.self) {
      try store.register([
        EntityDescription(
          name: "Thing", attributes: [AttributeDescription(name: "a", valueType: .int)],
          uniqueConstraints: [["a", "b"]])
      ])
    }
    #expect(error.code == .invalidUniqueConstraint)
    #expect(error.property == "b")
    #expect(throws: SchemaError.self) {
      try store.register([
        EntityDescription(
          name: "Other", attributes: [AttributeDescription(name: "a", valueType: .int)],
          uniqueConstraints: [["a", "a"]])
      ])
    }
  }
}

@Suite("Session graph rules: required to-one")
struct SessionRequiredToOneTests {
  @Test("a non-optional to-one with no live object is reported; an optional one is not")
  func requiredToOne() throws {
    let store = Store()
    try store.register([
      EntityDescription(name: "Owner"),
      EntityDescription(
        name: "Pet",
        relationships: [
          RelationshipDescription(
            name: "owner", destination: "Owner", isToMany: false, isOptional: false),
          RelationshipDescription(name: "sitter", destination: "Owner", isToMany: false),
        ]),
    ])
    let session = Session(store: store)
    let pet = session.insert(entity: 1)
    let violations = session.validate()
    #expect(violations.map(\.rule) == [.required])
    #expect(violations.map(\.property) == ["owner"])
    #expect(violations.map(\.key) == [pet])

    let owner = session.insert(entity: 0)
    session.setRelationship(of: pet, slot: 0, to: [owner])
    #expect(session.validate().isEmpty)
    _ = try session.save()
    _ = session.deleteApplyingRules(owner)
    session.storeRelatedKeys([], of: pet, slot: 0)
    #expect(session.validate().map(\.key) == [pet])
  }
}
