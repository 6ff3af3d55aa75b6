import Foundation
import ModelGraph
import Synchronization
import Testing

@Suite("Concurrency: merge policies")
struct MergePolicyTests {
  @Test(
    "an attribute both changed: rejected, this context's value, or the store's",
    arguments: [
      (MergePolicyChoice.reject, "first"), (.lastWriterWins, "second"), (.storeWins, "first"),
    ])
  func attribute(policy: MergePolicyChoice, expected: String) throws {
    let fixture = try ConflictFixture()
    let first = fixture.context()
    let second = fixture.context(policy.policy)
    try first.trip("T1").note = "first"
    try second.trip("T1").note = "second"
    try second.trip("T1").visits = 5
    try first.save()
    if policy == .reject {
      #expect(second.refusedConflicts() == [.attribute])
    } else {
      try second.save()
      #expect(!second.hasChanges)
      #expect(try second.trip("T1").note == expected)
    }
    let fresh = ModelContext(fixture.container)
    #expect(try fresh.trip("T1").note == expected)
    #expect(try fresh.trip("T1").visits == (policy == .reject ? 0 : 5))
  }

  @Test(
    "last writer wins deletes an object changed elsewhere, cascading over stops added since")
  func deletionWins() throws {
    let fixture = try ConflictFixture()
    let adder = fixture.context()
    let deleter = fixture.context(.lastWriterWins)
    try adder.trip("T2").stops.append(CCStop(name: "new"))
    try adder.trip("T2").note = "busy"
    deleter.delete(try deleter.trip("T2"))
    try adder.save()
    try deleter.save()
    #expect(try fixture.layout() == ["T1": ["x", "y"], "T3": []])
    #expect(try fixture.stopNames() == ["x", "y"])
    #expect(graphViolations(fixture.container).isEmpty)
  }

  @Test(
    "a custom resolver sees each conflict typed and settles it one by one")
  func custom() throws {
    let fixture = try ConflictFixture()
    let first = fixture.context()
    let second = fixture.context()
    try first.trip("T1").note = "first"
    try first.trip("T1").visits = 1
    try second.trip("T1").note = "second"
    try second.trip("T1").visits = 2
    try first.save()
    var seen: [String] = []
    second.mergePolicy = .custom { conflict in
      seen.append("\(conflict.property ?? "?"): \(conflict.theirs!) -> \(conflict.mine!)")
      return conflict.property == "note" ? .keepStore : .keepMine
    }
    try second.save()
    #expect(seen.sorted() == ["note: \"first\" -> \"second\"", "visits: 1 -> 2"])
    let fresh = ModelContext(fixture.container)
    #expect(try fresh.trip("T1").note == "first")
    #expect(try fresh.trip("T1").visits == 2)

    try second.trip("T1").note = "refused"
    try first.trip("T1").note = "again"
    try first.save()
    second.mergePolicy = .custom { _ in .reject }
    #expect(second.refusedConflicts() == [.attribute])
  }

  @Test(
    "two threads incrementing one counter: the final value plus refused saves equals attempts",
    arguments: [MergePolicyChoice.reject, .storeWins])
  func counter(policy: MergePolicyChoice) throws {
    let fixture = try ConflictFixture()
    let attempts = 300
    let refused = Atomic(0)
    let failures = Mutex<[String]>([])
    let group = DispatchGroup()
    for _ in 0..<2 {
      group.enter()
      Thread {
        defer { group.leave() }
        let context = fixture.context(policy.policy)
        for _ in 0..<attempts {
          do {
            try context.trip("T1").visits += 1
            try context.save()
          } catch let error as ModelError where error.code == .conflict {
            refused.add(1, ordering: .relaxed)
            context.rollback()
          } catch {
            failures.withLock { $0.append("\(error)") }
          }
        }
      }.start()
    }
    group.wait()
    #expect(failures.withLock { $0 }.isEmpty)
    let visits = try ModelContext(fixture.container).trip("T1").visits
    if policy == .reject {
      #expect(visits + refused.load(ordering: .relaxed) == 2 * attempts)
    } else {
      // Store wins drops the colliding increment instead of refusing: never more than tried.
      #expect(visits <= 2 * attempts)
      #expect(refused.load(ordering: .relaxed) == 0)
    }
  }
}
