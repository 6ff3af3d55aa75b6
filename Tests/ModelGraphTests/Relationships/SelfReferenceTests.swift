import ModelGraph
import Testing

@Suite("Relationships: a class related to itself")
struct RelationshipSelfReferenceTests {
  @Test("setting a manager adds the report, on both sides")
  func managerAndReports() throws {
    let context = try makeInMemoryContext(RLStaff.self)
    let boss = RLStaff(name: "Boss")
    let ann = RLStaff(name: "Ann")
    let bo = RLStaff(name: "Bo")
    context.insert(boss)
    ann.manager = boss
    boss.reports.append(bo)
    #expect(boss.reports.map(\.name) == ["Ann", "Bo"])
    #expect(bo.manager === boss)
    #expect(boss.manager == nil)

    bo.reports = [ann]
    #expect(ann.manager === bo)
    #expect(boss.reports.map(\.name) == ["Bo"])
  }

  @Test("deleting the top of a chain cascades down every level")
  func deepCascade() throws {
    let container = try makeInMemoryContainer(RLStaff.self)
    let context = ModelContext(container)
    let root = RLStaff(name: "L0")
    context.insert(root)
    var level = root
    for depth in 1...6 {
      let next = RLStaff(name: "L\(depth)")
      next.manager = level
      level.reports.append(RLStaff(name: "L\(depth)-side"))
      level = next
    }
    let outsider = RLStaff(name: "Outsider")
    context.insert(outsider)
    try context.save()
    #expect(try ModelContext(container).fetchCount(FetchDescriptor<RLStaff>()) == 14)

    context.delete(root)
    try context.save()
    #expect(
      try ModelContext(container).fetch(FetchDescriptor<RLStaff>()).map(\.name) == ["Outsider"])
  }

  @Test("a cascade around a cycle ends, deleting each object once")
  func cascadeCycle() throws {
    let container = try makeInMemoryContainer(RLStaff.self)
    let context = ModelContext(container)
    let ann = RLStaff(name: "Ann")
    let bo = RLStaff(name: "Bo")
    context.insert(ann)
    ann.manager = bo
    bo.manager = ann
    #expect(ann.reports.map(\.name) == ["Bo"])
    #expect(bo.reports.map(\.name) == ["Ann"])
    try context.save()

    context.delete(ann)
    #expect(bo.isDeleted)
    let records = try context.save()
    #expect(records.count == 2)
    #expect(try ModelContext(container).fetchCount(FetchDescriptor<RLStaff>()) == 0)
  }
}
