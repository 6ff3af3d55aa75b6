import Foundation
import ModelGraph
import Testing

/// Prefetching relationships that still name deleted objects (one-way relationships, which no
/// deletion edits), in contexts that hold no handle of the related objects: a prefetch checks
/// the liveness of every related row before it makes a handle, so a deleted object, or a
/// newer object in its reused row, is never in a list.
@Suite("Query: prefetching lists that name deleted objects")
struct PrefetchDeadKeyTests {
  /// Badges by title, each badge's holders prefetched.
  private static var badges: FetchDescriptor<RLBadge> {
    var descriptor = FetchDescriptor<RLBadge>(sortBy: [SortDescriptor(\.title)])
    descriptor.relationshipKeyPathsForPrefetching = [\.holders]
    return descriptor
  }

  /// Employees by name, each one's mentor prefetched.
  private static var employees: FetchDescriptor<RLEmployee> {
    var descriptor = FetchDescriptor<RLEmployee>(sortBy: [SortDescriptor(\.name)])
    descriptor.relationshipKeyPathsForPrefetching = [\.mentor]
    return descriptor
  }

  /// Three badges over six employees (badge `i` holds employees `i, i + 1, …` every other
  /// one), each employee mentored by the next; saved.
  private func makeStaff() throws -> ModelContainer {
    let container = try makeInMemoryContainer(RLBadge.self, RLEmployee.self)
    let context = ModelContext(container)
    let staff = (0..<6).map { RLEmployee(name: "E\($0)") }
    for employee in staff { context.insert(employee) }
    for (index, employee) in staff.enumerated() where index + 1 < staff.count {
      employee.mentor = staff[index + 1]
    }
    for index in 0..<3 {
      let badge = RLBadge(title: "B\(index)")
      context.insert(badge)
      badge.holders = stride(from: index, to: staff.count, by: 2).map { staff[$0] }
    }
    try context.save()
    return container
  }

  /// Deletes the employees named `names` in a context of their own and saves.
  private func delete(_ names: Set<String>, in container: ModelContainer) throws {
    let context = ModelContext(container)
    for employee in try context.fetch(FetchDescriptor<RLEmployee>())
    where names.contains(employee.name) {
      context.delete(employee)
    }
    try context.save()
  }

  /// Expects the prefetched `badges`' holders and `staff`'s mentors, by name, to be what
  /// navigation reads in a context of its own (nothing prefetched).
  private func expectNavigationAgrees(
    _ badges: [RLBadge], _ staff: [RLEmployee], in container: ModelContainer
  ) throws {
    let context = ModelContext(container)
    let navigatedBadges = try context.fetch(
      FetchDescriptor<RLBadge>(sortBy: [SortDescriptor(\.title)]))
    let navigatedStaff = try context.fetch(
      FetchDescriptor<RLEmployee>(sortBy: [SortDescriptor(\.name)]))
    #expect(
      badges.map { $0.holders.map(\.name) } == navigatedBadges.map { $0.holders.map(\.name) })
    #expect(staff.map { $0.mentor?.name } == navigatedStaff.map { $0.mentor?.name })
  }

  @Test("deleted holders and mentors are left out, in a fresh context")
  func deletedAndSaved() throws {
    let container = try makeStaff()
    try delete(["E1", "E2", "E5"], in: container)
    let fresh = ModelContext(container)
    let badges = try fresh.fetch(Self.badges)
    #expect(badges.map { $0.holders.map(\.name) } == [["E0", "E4"], ["E3"], ["E4"]])
    let staff = try fresh.fetch(Self.employees)
    #expect(staff.map(\.name) == ["E0", "E3", "E4"])
    #expect(staff.map { $0.mentor?.name } == [nil, "E4", nil])
    try expectNavigationAgrees(badges, staff, in: container)
  }

  @Test("a newer object in a deleted object's reused row is not taken for it")
  func reusedRows() throws {
    let container = try makeStaff()
    try delete(["E1", "E3"], in: container)
    let writer = ModelContext(container)
    for index in 0..<4 { writer.insert(RLEmployee(name: "N\(index)")) }
    try writer.save()
    let fresh = ModelContext(container)
    let badges = try fresh.fetch(Self.badges)
    #expect(badges.map { $0.holders.map(\.name) } == [["E0", "E2", "E4"], ["E5"], ["E2", "E4"]])
    let staff = try fresh.fetch(Self.employees)
    #expect(
      staff.filter { $0.name.hasPrefix("E") }.map { $0.mentor?.name } == [nil, nil, "E5", nil])
    #expect(staff.filter { $0.name.hasPrefix("N") }.allSatisfy { $0.mentor == nil })
    try expectNavigationAgrees(badges, staff, in: container)
  }

  @Test("objects deleted in the same context, their handles let go, are left out until rolled back")
  func deletedPending() throws {
    let container = try makeStaff()
    let context = ModelContext(container)
    try context.delete(
      model: RLEmployee.self, where: #Predicate { $0.name == "E2" || $0.name == "E3" })
    let badges = try context.fetch(Self.badges)
    #expect(badges.map { $0.holders.map(\.name) } == [["E0", "E4"], ["E1", "E5"], ["E4"]])
    let staff = try context.fetch(Self.employees)
    #expect(staff.map(\.name) == ["E0", "E1", "E4", "E5"])
    #expect(staff.map { $0.mentor?.name } == ["E1", nil, "E5", nil])
    context.rollback()
    let restored = try context.fetch(Self.badges)
    #expect(
      restored.map { $0.holders.map(\.name) } == [
        ["E0", "E2", "E4"], ["E1", "E3", "E5"], ["E2", "E4"],
      ])
    let mentors = try context.fetch(Self.employees).map { $0.mentor?.name }
    #expect(mentors == ["E1", "E2", "E3", "E4", "E5", nil])
  }
}
