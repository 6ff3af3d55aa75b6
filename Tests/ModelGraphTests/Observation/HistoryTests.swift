import Foundation
import ModelGraph
import Testing

@Suite("History")
struct HistoryTests {
  @Test("transactions with author, token and every kind of change, after a token")
  func transactionsAfterToken() throws {
    let context = try makeTripContext()
    context.author = "importer"
    let trip = Trip(name: "Oslo")
    trip.auditCode = "A-1"
    context.insert(trip)
    try context.save()
    context.author = "editor"
    trip.name = "Bergen"
    try context.save()
    context.delete(trip)
    try context.save()
    let all = try context.fetchHistory(HistoryDescriptor<DefaultHistoryTransaction>())
    #expect(all.count == 3)
    #expect(all.map(\.author) == ["importer", "editor", "editor"])
    #expect(all[0].changes == [.insert(trip.persistentModelID)])
    #expect(all[1].changes == [.update(trip.persistentModelID, updatedAttributes: ["name"])])
    #expect(
      all[2].changes == [.delete(trip.persistentModelID, tombstone: ["auditCode": .string("A-1")])])
    #expect(all.map(\.token) == all.map(\.token).sorted() && all[0].token < all[2].token)

    let after = all[0].token
    let later = try context.fetchHistory(
      HistoryDescriptor<DefaultHistoryTransaction>(predicate: #Predicate { $0.token > after }))
    #expect(later == Array(all.dropFirst()))
  }

  @Test("tokens survive JSON coding and keep their order")
  func tokensAreCodable() throws {
    let tokens = [DefaultHistoryToken(version: 3), DefaultHistoryToken(version: 12)]
    let decoded = try JSONDecoder().decode(
      [DefaultHistoryToken].self, from: JSONEncoder().encode(tokens))
    #expect(decoded == tokens && decoded[0] < decoded[1])
  }

  @Test("deleteHistory(before:) drops older transactions and marks older tokens expired")
  func deleteHistoryTrims() throws {
    let context = try makeTripContext()
    for index in 0..<4 {
      context.insert(Trip(name: "\(index)"))
      try context.save()
    }
    let all = try context.fetchHistory(HistoryDescriptor<DefaultHistoryTransaction>())
    #expect(!context.isHistoryExpired(after: all[0].token))
    context.deleteHistory(before: all[2].token)
    let kept = try context.fetchHistory(HistoryDescriptor<DefaultHistoryTransaction>())
    #expect(kept == Array(all[2...]))
    #expect(context.isHistoryExpired(after: all[0].token))
    #expect(!context.isHistoryExpired(after: all[1].token))
  }

  @Test("the retention keeps the newest saves and the newest object changes")
  func retentionBoundsHistory() throws {
    let context = try makeTripContext()
    let history = context.container.store.history
    history.retention = .init(transactions: 3, changes: 100)
    for index in 0..<200 {
      context.insert(Trip(name: "\(index)"))
      try context.save()
    }
    let kept = try context.fetchHistory(HistoryDescriptor<DefaultHistoryTransaction>())
    let newest = context.container.store.version.number
    #expect(kept.map(\.token.version) == [newest - 2, newest - 1, newest])
    history.retention = .init(transactions: 10, changes: 5)
    for _ in 0..<2 {
      for index in 0..<3 { context.insert(Trip(name: "batch \(index)")) }
      try context.save()
    }
    let bounded = try context.fetchHistory(HistoryDescriptor<DefaultHistoryTransaction>())
    #expect(bounded.map(\.changes.count) == [3])
    history.retention = .init(transactions: 0)
    context.insert(Trip(name: "unrecorded"))
    try context.save()
    #expect(try context.fetchHistory(HistoryDescriptor<DefaultHistoryTransaction>()).isEmpty)
  }
}
