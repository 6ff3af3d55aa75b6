import Synchronization
import Testing

@testable import ModelGraphCore

/// Records the writes, writeback hints and syncs of the files it passes to a ``SimFS``.
private final class WritebackRecorder: ForwardingFileIO, @unchecked Sendable {
  // @unchecked Sendable: the events are behind a mutex; the base is a SimFS.
  enum Event: Equatable {
    case write(Int)
    case hint(offset: Int, count: Int)
    case sync
  }

  let base = SimFS()
  let events = Mutex<[Event]>([])

  func write(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer) throws -> Int {
    let written = try base.write(descriptor, bytes)
    events.withLock { $0.append(.write(written)) }
    return written
  }

  func startWriteback(_ descriptor: Int32, offset: Int, count: Int) {
    events.withLock { $0.append(.hint(offset: offset, count: count)) }
    base.startWriteback(descriptor, offset: offset, count: count)
  }

  func sync(_ descriptor: Int32) throws {
    events.withLock { $0.append(.sync) }
    try base.sync(descriptor)
  }
}

@Suite("Snapshot saves start the disk's writeback as they write")
struct SnapshotWritebackTests {
  /// The hints of `events`, checked to cover the bytes written so far back to back from 0,
  /// and to come before the sync.
  private func hints(_ events: [WritebackRecorder.Event]) -> [(offset: Int, count: Int)] {
    var written = 0
    var covered = 0
    var synced = false
    var found: [(offset: Int, count: Int)] = []
    for event in events {
      switch event {
      case .write(let count): written += count
      case .hint(let offset, let count):
        #expect(!synced, "a hint after the sync")
        #expect(offset == covered && count > 0 && offset + count <= written)
        covered = offset + count
        found.append((offset, count))
      case .sync: synced = true
      }
    }
    #expect(synced)
    return found
  }

  @Test("each stretch of bytes written is hinted once, in order, before the file is synced")
  func everyWrite() throws {
    let store = try SnapshotFixture.makeStore(trips: 50, deletions: 4)
    let io = WritebackRecorder()
    var file = SnapshotFile(path: "/sim/hinted.mgs", io: io)
    file.writebackInterval = 1
    let size = try file.save(store.version)
    let found = hints(io.events.withLock { $0 })
    #expect(found.last.map { $0.offset + $0.count } == size)
    #expect(io.base.contents(of: "/sim/hinted.mgs") == SnapshotWriter.encode(store.version))
  }

  @Test("a file smaller than the interval gets no hint; a larger one gets them as it grows")
  func interval() throws {
    let small = try SnapshotFixture.makeStore(trips: 20, deletions: 0)
    let io = WritebackRecorder()
    try SnapshotFile(path: "/sim/small.mgs", io: io).save(small.version)
    #expect(hints(io.events.withLock { $0 }).isEmpty)

    // Two values of 5 MB: a file of more than 10 MB, written in pieces.
    let large = try SnapshotFixture.makeStore(trips: 6, deletions: 0)
    let session = Session(store: large)
    for (entity, slot) in [(SnapshotFixture.trip, 0), (SnapshotFixture.business, 12)] {
      session.table(entity).column(slot, as: String.self)[0] = String(
        repeating: "x", count: 5 << 20)
      session.noteAttributeWrite(entity: entity, row: 0, slot: slot)
    }
    try session.save()
    let largeIO = WritebackRecorder()
    var file = SnapshotFile(path: "/sim/large.mgs", io: largeIO)
    file.writebackInterval = 4 << 20
    let size = try file.save(large.version)
    let found = hints(largeIO.events.withLock { $0 })
    #expect(!found.isEmpty)
    #expect(found.allSatisfy { $0.count >= 4 << 20 })
    #expect(found.last.map { $0.offset + $0.count <= size - 1 } == true)
    let loaded = try #require(try SnapshotFile(path: "/sim/large.mgs", io: largeIO).load())
    #expect(
      loaded.tables[SnapshotFixture.trip].column(0, as: String.self)[0].utf8.count == 5 << 20)
  }
}
