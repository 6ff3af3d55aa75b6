import Foundation
import ModelGraph
import Testing

/// The plans `explain` shows: which index is used, with which bounds, and what is pruned.
@Suite("Query: plans and explain")
struct QueryPlanTests {
  let fixture: QueryFixture
  var context: ModelContext { fixture.context }

  init() throws { fixture = try QueryFixture.make() }

  @Test("a deep range sorted by an indexed attribute merges every table's index walk")
  func deepRangeMerge() throws {
    let lo = QueryFixture.epoch + 10 * QueryFixture.day
    let hi = QueryFixture.epoch + 40 * QueryFixture.day
    var descriptor = FetchDescriptor<QTrip>(
      predicate: #Predicate { $0.start >= lo && $0.start < hi }, sortBy: [SortDescriptor(\.start)])
    descriptor.fetchLimit = 10
    let plan = try context.explain(descriptor)
    for table in ["QTrip", "QBusiness", "QConference", "QPersonal"] {
      #expect(plan.contains("  \(table) ("), "\(plan)")
    }
    #expect(plan.components(separatedBy: "ordered(start) walk [").count == 5, "\(plan)")
    #expect(plan.contains("by merging 4 index walks, stopping after 10"), "\(plan)")
    #expect(!plan.contains(", test"), "the walk answers the range: \(plan)")
  }

  @Test("a descending sort without a condition walks the index backwards")
  func descendingWalk() throws {
    var descriptor = FetchDescriptor<QTrip>(sortBy: [SortDescriptor(\.start, order: .reverse)])
    descriptor.fetchLimit = 3
    let plan = try context.explain(descriptor)
    #expect(plan.contains("ordered(start) walk (-∞, ∞) descending"), "\(plan)")
  }

  @Test("equality uses a hash index, or an ordered one")
  func equality() throws {
    let beach = QKind.beach
    let hashed = try context.explain(
      FetchDescriptor<QTrip>(predicate: #Predicate { $0.kind == beach }))
    #expect(hashed.contains("hash(kind) == \"beach\""), "\(hashed)")
    let three = 3
    let ordered = try context.explain(
      FetchDescriptor<QTrip>(predicate: #Predicate { $0.nights == three }))
    #expect(ordered.contains("ordered(nights) == 3"), "\(ordered)")
  }

  @Test("a list of values is looked up in the index")
  func inList() throws {
    let kinds = [QKind.city, QKind.mountain]
    let plan = try context.explain(
      FetchDescriptor<QTrip>(predicate: #Predicate { kinds.contains($0.kind) }))
    #expect(plan.contains("hash(kind) == [\"city\", \"mountain\"]"), "\(plan)")
  }

  @Test("a subclass's index exists on its subclasses' tables only")
  func subclassIndex() throws {
    let acme = "Acme"
    let deep = try context.explain(
      FetchDescriptor<QBusiness>(predicate: #Predicate { $0.company == acme }))
    #expect(deep.contains("QBusiness (") && deep.contains("QConference ("), "\(deep)")
    #expect(deep.components(separatedBy: "hash(company) == \"Acme\"").count == 3, "\(deep)")
    #expect(!deep.contains("QPersonal"), "\(deep)")
    var shallow = FetchDescriptor<QBusiness>(predicate: #Predicate { $0.company == acme })
    shallow.includesSubclasses = false
    let plan = try context.explain(shallow)
    #expect(plan.contains("fetch QBusiness only") && !plan.contains("QConference"), "\(plan)")
  }

  @Test("a type test prunes the tables of other classes")
  func pruning() throws {
    let plan = try context.explain(
      FetchDescriptor<QTrip>(predicate: #Predicate { $0 is QPersonal }))
    #expect(plan.contains("QTrip: pruned"), "\(plan)")
    #expect(plan.contains("QBusiness: pruned") && plan.contains("QConference: pruned"), "\(plan)")
    #expect(plan.contains("QPersonal (") && !plan.contains(", test"), "\(plan)")
    let acme = "Acme"
    let cast = try context.explain(
      FetchDescriptor<QTrip>(
        predicate: #Predicate {
          if let business = $0 as? QBusiness { business.company == acme } else { false }
        }))
    #expect(cast.contains("QPersonal: pruned") && cast.contains("hash(company)"), "\(cast)")
  }

  @Test("a range and an ASCII prefix read an ordered index")
  func rangeAndPrefix() throws {
    let plan = try context.explain(
      FetchDescriptor<QTrip>(predicate: #Predicate { $0.nights > 7 && $0.budget < 900 }))
    #expect(plan.contains("ordered(nights) range (7, ∞)"), "\(plan)")
    #expect(plan.contains("test $0.budget < 900.0"), "the other conjunct is still tested: \(plan)")
    let oslo = "Oslo"
    let prefix = try context.explain(
      FetchDescriptor<QTrip>(predicate: #Predicate { $0.name.starts(with: oslo) }))
    #expect(prefix.contains("ordered(name) range [\"Oslo\", \"Oslp\")"), "\(prefix)")
    #expect(
      prefix.contains("test $0.name.starts(with: \"Oslo\")"),
      "a prefix range is a superset: \(prefix)")
  }

  @Test("a unique attribute has a hash index without a declaration")
  func uniqueAttribute() throws {
    let serial = 5
    let plan = try context.explain(
      FetchDescriptor<QStay>(predicate: #Predicate { $0.serial == serial }))
    #expect(plan.contains("hash(serial, unique) == 5"), "\(plan)")
    #expect(
      try context.fetch(FetchDescriptor<QStay>(predicate: #Predicate { $0.serial == serial })).count
        == 1)
  }

  @Test("an unindexed sort with a limit keeps the best in a heap; without one it sorts all")
  func sortStrategies() throws {
    var limited = FetchDescriptor<QTrip>(sortBy: [SortDescriptor(\.budget)])
    limited.fetchLimit = 5
    #expect(try context.explain(limited).contains("keeping the best 5 in a heap"))
    let all = FetchDescriptor<QTrip>(sortBy: [SortDescriptor(\.budget)])
    #expect(try context.explain(all).contains("sorting every match"))
  }

  @Test("explain says what falls back to Foundation")
  func fallbacks() throws {
    let plan = try context.explain(
      FetchDescriptor<QTrip>(predicate: #Predicate { $0.label == "x!" }))
    #expect(plan.contains("fallback: Predicate.evaluate"), "\(plan)")
    #expect(plan.contains("QTrip"), "\(plan)")
    let sorted = try context.explain(
      FetchDescriptor<QTrip>(sortBy: [SortDescriptor(\.name, comparator: .lexical)]))
    #expect(sorted.contains("sorted by Foundation"), "\(sorted)")
  }

  @Test("the printed condition is Swift-like")
  func description() throws {
    let five = 5
    let acme = "Acme"
    let plan = try context.explain(
      FetchDescriptor<QTrip>(
        predicate: #Predicate {
          $0.nights >= five && (($0 as? QBusiness).flatMap { $0.company == acme } ?? false)
        }))
    #expect(
      plan.contains(
        "where ($0.nights >= 5) && (($0 as? QBusiness).flatMap { $1 in $1.company == \"Acme\" } ?? false)"
      ),
      "\(plan)")
  }
}
