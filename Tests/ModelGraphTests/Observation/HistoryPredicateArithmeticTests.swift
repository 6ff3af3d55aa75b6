import Foundation
import ModelGraph
import Testing

/// A history predicate runs through `Predicate.evaluate`, which stops the process where integer
/// or `Decimal` arithmetic overflows or divides by zero: such a predicate is refused before it
/// runs, and one without that arithmetic still answers.
@Suite("History predicates with arithmetic")
struct HistoryPredicateArithmeticTests {
  @Test("integer arithmetic in a history predicate is refused, naming the operator")
  func arithmeticIsRefused() throws {
    let context = try makeTripContext()
    context.insert(Trip(name: "Oslo"))
    try context.save()
    // 1 - 100 on a UInt64: Predicate.evaluate would stop the process.
    let offset: UInt64 = 100
    let descriptor = HistoryDescriptor<DefaultHistoryTransaction>(
      predicate: #Predicate { $0.transactionIdentifier - offset > 0 })
    let error = #expect(throws: ModelError.self) { try context.fetchHistory(descriptor) }
    #expect(error?.code == .unsupportedPredicate)
    #expect(error?.message.contains("'-' on UInt64") == true)
  }

  @Test("a history predicate without arithmetic still answers")
  func comparisonAnswers() throws {
    let context = try makeTripContext()
    context.insert(Trip(name: "Oslo"))
    try context.save()
    context.insert(Trip(name: "Bergen"))
    try context.save()
    let all = try context.fetchHistory(HistoryDescriptor<DefaultHistoryTransaction>())
    let first = try #require(all.first).transactionIdentifier
    let later = try context.fetchHistory(
      HistoryDescriptor<DefaultHistoryTransaction>(
        predicate: #Predicate { $0.transactionIdentifier > first }))
    #expect(
      later.map(\.transactionIdentifier) == Array(all.dropFirst()).map(\.transactionIdentifier))
    #expect(later.count == 1)
  }
}
