import Foundation
import Testing

@testable import ModelGraph

/// A server's small transactions: each fetches one object by its unique key, changes, inserts
/// and deletes, and saves. The fetch runs the bound plan of its shape on every transaction
/// (kept across the saves), and finds each transaction's own object.
@Suite("Query: bound plans across saves")
struct BoundPlanAcrossSavesTests {
  let fixture: QueryFixture
  var context: ModelContext { fixture.context }
  var boundHits: Int { context.session.planCache.boundHits }

  init() throws { fixture = try QueryFixture.make(count: 60) }

  /// A new stay, not inserted.
  static func stay(_ serial: Int, _ name: String) -> QStay {
    let stay = QStay()
    stay.serial = serial
    stay.name = name
    stay.rate = 100
    return stay
  }

  func stay(serial: Int) throws -> [QStay] {
    try context.fetch(FetchDescriptor<QStay>(predicate: #Predicate { $0.serial == serial }))
  }

  @Test("a fetch by unique key before each save runs bound and sees the saves")
  func smallTransactions() throws {
    let serials = fixture.stays.map(\.serial)
    let first = try #require(serials.first)
    #expect(try stay(serial: first).map(\.serial) == [first])
    let before = boundHits
    var inserted: [QStay] = []
    for round in 0..<30 {
      let serial = serials[(round * 7) % serials.count]
      let found = try stay(serial: serial)
      #expect(found.map(\.serial) == [serial], "round \(round)")
      found.first?.rate += 1
      // The stay the previous round inserted is found, then deleted.
      if let last = inserted.last {
        #expect(try stay(serial: last.serial).map(\.name) == [last.name], "round \(round)")
        context.delete(last)
      }
      let new = Self.stay(100_000 + round, "new \(round)")
      context.insert(new)
      try context.save()
      inserted.append(new)
      #expect(try stay(serial: 100_000 + round - 1).isEmpty, "round \(round)")
    }
    // Each round's fetches without unsaved changes (its first, and the one after its save)
    // ran bound, though a save came before each; the others planned.
    #expect(boundHits >= before + 58)
    let rates = try context.fetch(FetchDescriptor<QStay>()).filter { $0.serial < 100_000 }
    #expect(rates.count == serials.count)
  }

  @Test("unsaved changes before a fetch by unique key are seen, and left out when asked")
  func unsavedChanges() throws {
    _ = try stay(serial: 0)
    _ = try stay(serial: 1)
    try context.save()
    let new = Self.stay(200_000, "unsaved")
    context.insert(new)
    #expect(try stay(serial: 200_000).map(\.name) == ["unsaved"])
    var committed = FetchDescriptor<QStay>(predicate: #Predicate { $0.serial == 200_000 })
    committed.includePendingChanges = false
    #expect(try context.fetch(committed).isEmpty)
    try context.save()
    #expect(try stay(serial: 200_000).map(\.name) == ["unsaved"])
    #expect(try context.fetch(committed).map(\.name) == ["unsaved"])
  }

  @Test("explain after saves still describes the index lookup from the cache")
  func explainAfterSaves() throws {
    _ = try stay(serial: 0)
    for round in 0..<3 {
      _ = try stay(serial: round)
      let new = Self.stay(300_000 + round, "x")
      context.insert(new)
      try context.save()
    }
    let text = try context.explain(
      FetchDescriptor<QStay>(predicate: #Predicate { $0.serial == 300_001 }))
    #expect(text.contains("serial"), "\(text)")
    #expect(try stay(serial: 300_001).count == 1)
  }

  @Test("a schema change after saves stops the kept bound plan")
  func schemaChange() throws {
    _ = try stay(serial: 0)
    _ = try stay(serial: 1)
    let new = Self.stay(400_000, "y")
    context.insert(new)
    try context.save()
    _ = try context.fetch(FetchDescriptor<QAcrossSavesLate>())
    let before = boundHits
    #expect(try stay(serial: 400_000).map(\.name) == ["y"])
    // The first fetch after the change plans anew; the later ones run its bound plan.
    #expect(boundHits == before)
    #expect(try stay(serial: 2).map(\.serial) == [2])
    #expect(try stay(serial: 3).map(\.serial) == [3])
    #expect(boundHits > before)
  }
}

/// A class registered only when first fetched, to change the schema mid-test.
final class QAcrossSavesLate: PersistentModel {
  @Attribute var label: String
}
