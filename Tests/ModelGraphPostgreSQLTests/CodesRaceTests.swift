import Foundation
import ModelGraphCore
import Testing

@testable import ModelGraph
@testable import ModelGraphPostgreSQL

extension PostgreSQLStoreSuites.FetchedResidency {
  /// The store's class codes, read by a count that leaves objects out while another thread
  /// reserves rows (which records the codes again), in one container: 5507f34 made the count
  /// read them under the lock. Without that fix ThreadSanitizer reports a Swift access race
  /// here (the store's count, called directly, reaches it within a run; `fetchCount` alone did
  /// not); a plain run checks only the counts.
  @Suite("Class codes and concurrent row reservations") struct CodesRace {
    @Test(
      "a count with unsaved changes runs while another thread reserves rows; ThreadSanitizer finds no race"
    )
    func countWhileReserving() throws {
      let url = try TestServer.freshURL()
      try FetchedUnsaved.seedDistinct(url)
      let container = try TestServer.container(
        teamTypes, at: PostgreSQLStoreSuites.FetchedResidency.fetchedOnly(url))
      let postgres = try #require(container.store.persistence as? PostgreSQLStore)
      let member = try #require(container.store.catalog.entity(named: "Member"))
      // Saves of new members, and reservations of a block and a row past what is left (each
      // reserves in the database and records the class's code, under the store's lock).
      let batches = 4
      let failures = Locked<[String]>([])
      let done = DispatchGroup()
      done.enter()
      Thread.detachNewThread {
        let writer = ModelContext(container)
        do {
          for batch in 0..<batches {
            for index in 0..<100 { writer.insert(Member(name: "w\(batch).\(index)", score: 1)) }
            try writer.save()
            for _ in 0..<200 {
              if postgres.allocateRows(entity: member, count: PostgreSQLStore.blockSize + 1) == nil
              {
                failures.withLock { $0.append("no rows reserved") }
              }
            }
          }
        } catch {
          failures.withLock { $0.append("\(error)") }
        }
        done.leave()
      }
      // The unsaved change takes p3 out of the count: PostgreSQL counts every member but p3,
      // whose identifier the count builds from its class's code. The store's own count does
      // so too, many times while the other thread reserves rows.
      let reader = ModelContext(container)
      let changed = try FetchedElsewhere.member(3, in: reader)
      changed.score = -3
      let excluded = [(entity: "Member", row: Int(changed._key.row))]
      let counted = FetchDescriptor<Member>(predicate: #Predicate { $0.score >= 0 })
      let all = QueryRequest(entity: member.index)
      // Checked afterwards: the loop does nothing but count while the other thread runs.
      var seen: [Int?] = []
      while done.wait(timeout: .now()) == .timedOut || seen.isEmpty {
        for _ in 0..<20 { seen.append(try postgres.count(for: all, excluding: excluded)?.count) }
        seen.append(try reader.fetchCount(counted))
      }
      let counts = seen.compactMap { $0 }
      #expect(counts.count == seen.count)
      #expect(counts == counts.sorted())
      #expect(counts.allSatisfy { $0 >= 39 && $0 <= 39 + batches * 100 })
      #expect(failures.withLock { $0 } == [])
      #expect(try postgres.count(for: all, excluding: excluded)?.count == 39 + batches * 100)
      #expect(try reader.fetchCount(counted) == 39 + batches * 100)
    }
  }
}
