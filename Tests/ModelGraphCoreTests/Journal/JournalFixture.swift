import Foundation

@testable import ModelGraphCore

/// Stores on ``StoreFiles`` opened as a container opens them, and a deterministic workload of
/// saves over ``SnapshotFixture``'s schema (inserts, updates, relationship writes, cascading
/// deletes, reused rows).
enum JournalFixture {
  struct Opened {
    let store: Store
    let journal: Journal
    let report: RecoveryReport
  }

  /// Recovers `files`, registers the fixture's schema and attaches the journal (which writes
  /// zeros ahead 1 KiB at a time, so small tests cross that boundary).
  static func open(
    _ files: StoreFiles, durability: Durability = .full, threshold: Int = .max
  ) throws -> Opened {
    files.removeOrphans()
    let recovered = try files.recover()
    let store = recovered.version.map { Store(loading: $0) } ?? Store()
    try store.register(SnapshotFixture.descriptions)
    let journal = try files.openJournal(
      for: store, after: recovered, rewrite: recovered.version == nil, durability: durability,
      checkpointThreshold: threshold, preallocation: 1024)
    store.attach(journal)
    return Opened(store: store, journal: journal, report: recovered.report)
  }

  /// The version `files` recover to, as snapshot bytes (without lineage), or `nil`.
  static func recoveredBytes(_ files: StoreFiles) throws -> [UInt8]? {
    try files.recover().version.map { SnapshotWriter.encode($0) }
  }

  /// The store's current version as snapshot bytes (without lineage).
  static func bytes(_ store: Store) -> [UInt8] { SnapshotWriter.encode(store.version) }

  /// Save `step` of the workload: a new trip with a stay; every third step also changes an
  /// earlier trip's days and gives it a second stay; every fourth moves a stay to another trip;
  /// every fifth deletes the oldest trip (its stays cascade).
  static func save(step: Int, store: Store, session: Session? = nil) throws {
    let session = session ?? Session(store: store)
    insertTrip(step, session: session)
    let trips = session.table(SnapshotFixture.trip)
    var live: [Int] = []
    trips.forEachLiveRow { live.append($0) }
    if step % 3 == 2, let row = live.dropLast().last {
      trips.column(1, as: Int64.self)[row] = Int64(step * 100)
      session.noteAttributeWrite(entity: SnapshotFixture.trip, row: row, slot: 1)
      let owner = ObjectKey(
        entity: SnapshotFixture.trip, row: row, generation: trips.generation(of: row))
      let stay = session.insert(entity: SnapshotFixture.stay)
      session.table(SnapshotFixture.stay).column(0, as: String.self)[Int(stay.row)] = "extra"
      session.noteAttributeWrite(entity: SnapshotFixture.stay, row: Int(stay.row), slot: 0)
      session.setRelationship(
        of: owner, slot: 0, to: session.relatedKeys(of: owner, slot: 0) + [stay])
    }
    if step % 4 == 3, live.count >= 3 {
      // A relationship-only change: a stay moves to another trip (both trips' inverses change).
      func key(_ row: Int) -> ObjectKey {
        ObjectKey(entity: SnapshotFixture.trip, row: row, generation: trips.generation(of: row))
      }
      if let stay = session.relatedKeys(of: key(live[1]), slot: 0).first {
        session.setRelationship(of: stay, slot: 0, to: [key(live[2])])
      }
    }
    if step % 5 == 4, let row = live.first {
      _ = session.deleteApplyingRules(
        ObjectKey(entity: SnapshotFixture.trip, row: row, generation: trips.generation(of: row)))
    }
    try session.save()
  }

  /// Inserts trip `index` with every attribute set and one stay.
  static func insertTrip(_ index: Int, session: Session) {
    let entity = SnapshotFixture.trip
    let key = session.insert(entity: entity)
    let table = session.table(entity)
    let row = Int(key.row)
    table.column(0, as: String.self)[row] = "trip \(index)"
    table.column(1, as: Int64.self)[row] = Int64(index)
    table.column(2, as: String?.self)[row] = index.isMultiple(of: 2) ? "note \(index)" : nil
    table.column(3, as: [String].self)[row] = Array(repeating: "t", count: index % 4)
    table.column(4, as: Bool.self)[row] = index % 2 == 1
    table.column(5, as: Double.self)[row] = Double(index) * 1.5
    table.column(6, as: Date.self)[row] = Date(timeIntervalSinceReferenceDate: Double(index))
    // Deterministic, so two runs of a workload give the same bytes.
    let low = UInt8(index & 0xFF)
    let high = UInt8((index >> 8) & 0xFF)
    table.column(7, as: UUID.self)[row] = UUID(
      uuid: (high, low, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14))
    table.column(8, as: URL?.self)[row] = URL(string: "https://example.com/\(index)")
    table.column(9, as: Data.self)[row] = Data([UInt8(index & 0xFF), 1, 2])
    table.column(10, as: Decimal.self)[row] = Decimal(index) / 4
    table.column(11, as: UInt64.self)[row] = UInt64(index)
    for slot in 0..<12 { session.noteAttributeWrite(entity: entity, row: row, slot: slot) }
    let stay = session.insert(entity: SnapshotFixture.stay)
    session.table(SnapshotFixture.stay).column(0, as: String.self)[Int(stay.row)] = "stay \(index)"
    session.noteAttributeWrite(entity: SnapshotFixture.stay, row: Int(stay.row), slot: 0)
    session.setRelationship(of: key, slot: 0, to: [stay])
  }

  /// A new empty directory under the system's temporary directory.
  static func temporaryDirectory() throws -> String {
    let path = FileManager.default.temporaryDirectory
      .appendingPathComponent("journal-\(UUID().uuidString)").path
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
  }
}

extension JournalFixture {
  /// The length of the whole records of the journal `bytes` (the zeros written ahead excluded).
  static func recordsLength(_ bytes: [UInt8]) throws -> Int {
    try bytes.withUnsafeBytes { try JournalReader($0, path: "journal").validLength }
  }
}
