import Foundation
import ModelGraph
import Testing

extension Trip {
  /// A computed property, which the engine cannot read.
  var loudName: String { name.uppercased() }
}

@Suite("explain names the sub-expression it leaves to Foundation")
struct ExplainFallbackTextTests {
  private func fallbackLine<T: PersistentModel>(
    _ context: ModelContext, _ predicate: Predicate<T>
  ) throws -> String {
    let plan = try context.explain(FetchDescriptor(predicate: predicate))
    return try #require(
      plan.split(separator: "\n").first { $0.hasPrefix("fallback:") }.map(String.init))
  }

  @Test("a computed property is named by its class and type, and the rest runs in the engine")
  func computedProperty() throws {
    let context = try makeTripContext()
    let line = try fallbackLine(
      context, #Predicate<Trip> { $0.name != "Rome" && $0.loudName == "PARIS" })
    #expect(
      line
        == "fallback: Predicate.evaluate on each candidate object for "
        + "$0.(a computed or @Transient String property) == \"PARIS\", which the engine does not "
        + "evaluate (a key path of Trip that names no persisted attribute or relationship "
        + "(a computed or @Transient property))")
  }

  @Test("a comparison of Codable values is written out with its captured value")
  func codableEquality() throws {
    let context = try makeInMemoryContext(CAItem.self)
    let status = CAStatus.draft
    let line = try fallbackLine(context, #Predicate<CAItem> { $0.status == status })
    #expect(
      line
        == "fallback: Predicate.evaluate on each candidate object for "
        + "$0.status == draft, which the engine does not evaluate "
        + "(== on CAStatus, whose == the engine cannot prove equal to comparing its stored JSON)")
  }

  @Test("two parts left to Foundation are both named")
  func twoParts() throws {
    let context = try makeTripContext()
    let line = try fallbackLine(
      context, #Predicate<Trip> { $0.loudName == "A" && $0.loudName.count > 3 })
    #expect(line.contains("for $0.(a computed or @Transient String property) == \"A\""), "\(line)")
    #expect(
      line.contains("; and for $0.(a computed or @Transient String property).count > 3"),
      "\(line)")
    #expect(!line.contains("<computed"), "\(line)")
  }

  @Test("a sort Foundation performs is named with its reason")
  func sortFallback() throws {
    let context = try makeTripContext()
    let lexical = try context.explain(
      FetchDescriptor<Trip>(sortBy: [
        SortDescriptor(\.name), SortDescriptor(\.name, comparator: .lexical),
      ]))
    #expect(
      lexical.contains(
        "fallback: sorted by Foundation, since $0.name uses a string comparator"
      ),
      "\(lexical)")
    let computed = try context.explain(FetchDescriptor<Trip>(sortBy: [SortDescriptor(\.loudName)]))
    #expect(
      computed.contains(
        "fallback: sorted by Foundation, since $0.(a computed or @Transient String property) is "
          + "not a persisted attribute"),
      "\(computed)")
  }
}
