import Foundation
import Testing

@testable import ModelGraphCore

@Suite("Journal: concurrent savers, then a power loss")
struct JournalConcurrentCrashTests {
  @Test("every save acknowledged by any of four threads survives a power loss mid-run")
  func acknowledgedSavesSurvive() throws {
    let io = SimFS(directories: ["/sim"])
    let files = StoreFiles(path: "/sim/store.mgs", io: io)
    let opened = try JournalFixture.open(files)
    // A class, not a local Mutex: threads share it by reference, not through a captured box.
    let acknowledged = Locked<Set<String>>([])
    let group = DispatchGroup()
    for thread in 0..<4 {
      group.enter()
      Thread.detachNewThread {
        defer { group.leave() }
        let session = Session(store: opened.store)
        for index in 0..<10_000 {
          let trip = thread * 10_000 + index
          JournalFixture.insertTrip(trip, session: session)
          do {
            try session.save()
          } catch {
            // The power went: later saves fail (the journal's descriptor is gone).
            return
          }
          acknowledged.withLock { _ = $0.insert("trip \(trip)") }
        }
      }
    }
    // Let the four threads run a while, sharing syncs, then cut the power under them.
    while acknowledged.withLock({ $0.count }) < 60 { usleep(1_000) }
    io.restart(powerLoss: true)
    group.wait()

    let saved = acknowledged.withLock { $0 }
    let recovered = try files.recover()
    let version = try #require(recovered.version)
    let trips = version.tables[SnapshotFixture.trip]
    var names: Set<String> = []
    trips.forEachLiveRow { names.insert(trips.column(0, as: String.self)[$0]) }
    #expect(saved.count >= 60)
    #expect(saved.isSubset(of: names), "lost: \(saved.subtracting(names).sorted().prefix(5))")
    // Each trip came with its stay: nothing came back half-saved.
    #expect(version.tables[SnapshotFixture.stay].liveCount == names.count)
  }
}
