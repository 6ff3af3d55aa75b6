import Foundation
import ModelGraph
import Testing

/// A save that inserts more than eight chunks of rows copies their storage before it publishes
/// (packing). These run the typed API over such saves and compare every object with a plain
/// model of what was written: after the save, after updates, moves and deletions, after a save
/// of a context that read before the bulk save, and after the file is opened again.
@Suite("Container: a bulk insert's packed storage")
struct BulkInsertPackingTests {
  /// What each employee should hold: name, number and department name (`nil`: none).
  private typealias Expected = [String: (number: Int, department: String?)]

  private static let employees = 9_500
  private static let departments = 40

  private static func check(_ container: ModelContainer, _ expected: Expected) throws {
    let context = ModelContext(container)
    let found = try context.fetch(FetchDescriptor<RLEmployee>())
    #expect(found.count == expected.count)
    var mismatches: [String] = []
    for employee in found {
      guard let want = expected[employee.name] else {
        mismatches.append("unexpected \(employee.name)")
        continue
      }
      if employee.number != want.number || employee.department?.name != want.department {
        mismatches.append(
          "\(employee.name): \(employee.number) \(employee.department?.name ?? "-")")
      }
    }
    #expect(mismatches.isEmpty, "\(mismatches.count) differ, first \(mismatches.prefix(3))")
    for department in try context.fetch(FetchDescriptor<RLDepartment>()) {
      let members = Set(department.employees.map(\.name))
      let want = Set(expected.filter { $0.value.department == department.name }.keys)
      #expect(members == want, "\(department.name)")
    }
  }

  @Test("values, lists and inverses survive packing, later writes, a stale context and a reopen")
  func roundTrip() throws {
    let scratch = try SnapshotScratch()
    var expected: Expected = [:]
    do {
      let container = try ModelContainer(
        for: RLDepartment.self, RLEmployee.self,
        configurations: ModelConfiguration(url: scratch.store))
      // A context that reads before the bulk save and saves after it (a rebase over packing).
      let stale = ModelContext(container)
      let early = RLDepartment(name: "early")
      stale.insert(early)
      try stale.save()

      let context = ModelContext(container)
      let departments = (0..<Self.departments).map { RLDepartment(name: "d\($0)") }
      for department in departments { context.insert(department) }
      for index in 0..<Self.employees {
        // Names of several lengths, some beyond ASCII, so string arenas vary.
        let name = "e\(index)" + String(repeating: index % 3 == 0 ? "é" : "x", count: index % 17)
        let employee = RLEmployee(name: name, number: index)
        context.insert(employee)
        let department = departments[index % Self.departments]
        employee.department = department
        expected[name] = (index, department.name)
      }
      try context.save()
      expected["early-hire"] = (-1, "early")
      try Self.check(container, expected.filter { $0.key != "early-hire" })

      // Updates, moves and deletions over the packed chunks.
      let all = try context.fetch(FetchDescriptor<RLEmployee>(sortBy: [SortDescriptor(\.number)]))
      for employee in all where employee.number % 7 == 0 {
        employee.number += 100_000
        expected[employee.name]!.number += 100_000
      }
      for employee in all where employee.number % 11 == 0 {
        let target = departments[(employee.number / 11) % Self.departments]
        employee.department = target
        expected[employee.name]!.department = target.name
      }
      for employee in all where employee.number % 13 == 5 {
        expected[employee.name] = nil
        context.delete(employee)
      }
      try context.save()

      let hire = RLEmployee(name: "early-hire", number: -1)
      stale.insert(hire)
      hire.department = early
      try stale.save()
      try Self.check(container, expected)
    }
    let reopened = try ModelContainer(
      for: RLDepartment.self, RLEmployee.self,
      configurations: ModelConfiguration(url: scratch.store))
    try Self.check(reopened, expected)
  }
}
