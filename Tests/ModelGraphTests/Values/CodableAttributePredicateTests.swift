import Foundation
import ModelGraph
import Testing

@Suite("Predicates on Codable, dictionary and set attributes")
struct CodableAttributePredicateTests {
  /// Three items: the filled one, one with other values, and one with defaults.
  private func makeContext() throws -> ModelContext {
    let context = try makeInMemoryContext(CAItem.self)
    context.insert(makeFilledItem("filled"))
    let other = makeFilledItem("other")
    other.tags = ["a"]
    other.labels = ["color": "blue"]
    other.payment = .cash
    other.weather = rainy
    other.status = .draft
    other.optionalPayment = nil
    context.insert(other)
    context.insert(CAItem("plain"))
    try context.save()
    return context
  }

  private func names(
    _ context: ModelContext, _ predicate: Predicate<CAItem>
  ) throws -> [String] {
    try context.fetch(FetchDescriptor(predicate: predicate, sortBy: [SortDescriptor(\.name)]))
      .map(\.name)
  }

  @Test("set membership runs in the engine; set equality holds whatever the set's order")
  func sets() throws {
    let context = try makeContext()
    let wanted: Set<String> = ["ü", "b", "a"]
    let equal = #Predicate<CAItem> { $0.tags == wanted }
    #expect(try names(context, equal) == ["filled"])
    let member = #Predicate<CAItem> { $0.tags.contains("a") }
    #expect(try names(context, member) == ["filled", "other"])
    #expect(!(try context.explain(FetchDescriptor(predicate: member))).contains("fallback"))
    #expect(try context.explain(FetchDescriptor(predicate: equal)).contains("$0.tags == "))
    let counted = #Predicate<CAItem> { $0.tags.count == 3 && !$0.numbers.isEmpty }
    #expect(try names(context, counted) == ["filled"])
    #expect(!(try context.explain(FetchDescriptor(predicate: counted))).contains("fallback"))
    let big = Int.max
    let number = #Predicate<CAItem> { $0.numbers.contains(big) }
    #expect(try names(context, number) == ["filled", "other"])
  }

  @Test("equality on dictionaries runs in the engine; on structs and enums in Foundation")
  func codableEquality() throws {
    let context = try makeContext()
    let labels = ["color": "blue"]
    let byLabels = #Predicate<CAItem> { $0.labels == labels }
    #expect(try names(context, byLabels) == ["other"])
    #expect(!(try context.explain(FetchDescriptor(predicate: byLabels)).contains("fallback")))
    let weather = sunny
    let byWeather = #Predicate<CAItem> { $0.weather == weather }
    #expect(try names(context, byWeather) == ["filled"])
    #expect(try context.explain(FetchDescriptor(predicate: byWeather)).contains("fallback"))
    let payment = card
    #expect(try names(context, #Predicate { $0.payment == payment }) == ["filled"])
    let cash = CAPayment.cash
    #expect(try names(context, #Predicate { $0.payment == cash }) == ["other", "plain"])
    let status = CAStatus.draft
    #expect(try names(context, #Predicate { $0.status == status }) == ["other", "plain"])
    let noPayment = #Predicate<CAItem> { $0.optionalPayment == nil }
    #expect(try names(context, noPayment) == ["other", "plain"])
    #expect(!(try context.explain(FetchDescriptor(predicate: noPayment)).contains("fallback")))
  }

  @Test("a predicate mixing an engine part and a Codable part filters by both")
  func mixed() throws {
    let context = try makeContext()
    let cash = CAPayment.cash
    let predicate = #Predicate<CAItem> { $0.name != "plain" && $0.payment == cash }
    #expect(try names(context, predicate) == ["other"])
  }
}
