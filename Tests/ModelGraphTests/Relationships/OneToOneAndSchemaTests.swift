import ModelGraph
import Testing

@Suite("Relationships: one-to-one")
struct RelationshipOneToOneTests {
  @Test("giving a passport to a holder takes it from the previous holder, on both sides")
  func stealing() throws {
    let context = try makeInMemoryContext(RLHolder.self)
    let ann = RLHolder(name: "Ann")
    let bo = RLHolder(name: "Bo")
    context.insert(ann)
    context.insert(bo)
    let first = RLPassport(number: "P1")
    let second = RLPassport(number: "P2")
    ann.passport = first
    #expect(first.holder === ann)

    // From the passport side: Ann's old passport loses its holder.
    second.holder = ann
    #expect(ann.passport === second)
    #expect(first.holder == nil)

    // From the holder side: Ann loses the passport Bo takes.
    bo.passport = second
    #expect(second.holder === bo)
    #expect(ann.passport == nil)
    try context.save()
  }

  @Test("deleting a holder deletes the passport (cascade on a to-one)")
  func cascadeToOne() throws {
    let container = try makeInMemoryContainer(RLHolder.self)
    let context = ModelContext(container)
    let ann = RLHolder(name: "Ann")
    context.insert(ann)
    ann.passport = RLPassport(number: "P1")
    try context.save()
    context.delete(ann)
    try context.save()
    #expect(try ModelContext(container).fetchCount(FetchDescriptor<RLPassport>()) == 0)
  }
}

@Suite("Relationships: declared inverses checked at container creation")
struct RelationshipInverseSchemaTests {
  @Test("an inverse whose relationship points at another class is a schema error")
  func mismatchedInverse() throws {
    let error = try #require(throws: SchemaError.self) {
      _ = try makeInMemoryContainer(RLMismatchedOwner.self)
    }
    #expect("\(error)".contains("RLMismatchedOwner"))
    #expect("\(error)".contains("items"))
  }
}
