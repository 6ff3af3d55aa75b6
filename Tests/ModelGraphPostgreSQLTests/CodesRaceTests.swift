import Foundation
import ModelGraph
import ModelGraphCore
import Testing

@testable import ModelGraphPostgreSQL

extension PostgreSQLStoreSuites.FetchedResidency {
  /// The store's class codes, read by a count from one thread while another thread's inserts
  /// reserve rows (which records the codes again), in one container.
  @Suite("Class codes and concurrent row reservations") struct CodesRace {
    @Test(
      "a count with unsaved changes runs while another thread reserves rows; ThreadSanitizer finds no race"
    )
    func countWhileReserving() throws {
      let url = try TestServer.freshURL()
      try FetchedUnsaved.seedDistinct(url)
      let container = try TestServer.container(
        teamTypes, at: PostgreSQLStoreSuites.FetchedResidency.fetchedOnly(url))
      // Several blocks of rows, each reserved (and its class's code recorded) under the lock.
      let batches = 3 * PostgreSQLStore.blockSize / 100 + 2
      let failures = Locked<[String]>([])
      let done = DispatchGroup()
      done.enter()
      Thread.detachNewThread {
        let writer = ModelContext(container)
        do {
          for batch in 0..<batches {
            for index in 0..<100 { writer.insert(Member(name: "w\(batch).\(index)", score: 1)) }
            try writer.save()
          }
        } catch {
          failures.withLock { $0.append("\(error)") }
        }
        done.leave()
      }
      // The unsaved change takes p3 out of the count: PostgreSQL counts every member but p3,
      // whose identifier the count builds from its class's code.
      let reader = ModelContext(container)
      try FetchedElsewhere.member(3, in: reader).score = -3
      let counted = FetchDescriptor<Member>(predicate: #Predicate { $0.score >= 0 })
      var last = 0
      var counts = 0
      while done.wait(timeout: .now()) == .timedOut || counts == 0 {
        let count = try reader.fetchCount(counted)
        #expect(count >= last && count <= 39 + batches * 100)
        (last, counts) = (count, counts + 1)
      }
      #expect(failures.withLock { $0 } == [])
      #expect(try reader.fetchCount(counted) == 39 + batches * 100)
    }
  }
}
