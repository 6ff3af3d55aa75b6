import Foundation

@testable import ModelGraphCore

/// Crashes a save at every step k = 0…N of its I/O on a ``SimFS``, with and without a power
/// loss, and reports every outcome a durable, atomic save must not have.
///
/// After each crash the simulated process restarts, removes orphaned temporary files and loads
/// the file. The file must load as the old snapshot or the new one (the new one whenever the
/// save returned), never fail to load, and no temporary file may remain.
struct CrashMatrix {
  /// One outcome a correct save never has.
  struct Problem: CustomStringConvertible, Equatable {
    enum Kind: String { case torn, acknowledgedSaveLost, oldSnapshotLost, orphanLeft, foreign }
    var kind: Kind
    var step: Int
    var powerLoss: Bool
    var detail: String
    var description: String {
      "step \(step)\(powerLoss ? " + power loss" : ""): \(kind) (\(detail))"
    }
  }

  /// A way of saving `version` to `file` (the real ``SnapshotFile/save(_:)`` or a broken one).
  typealias Save = (SnapshotFile, StoreVersion) throws -> Void

  static let directory = "/sim"
  static let path = "/sim/store.mgs"

  let old: StoreVersion?
  let new: StoreVersion
  /// Wraps the disk seen by the save (a negative control hides a step this way).
  var wrap: (SimFS) -> any FileIO = { $0 }
  var save: Save = { try $0.save($1) }

  /// The number of mutating I/O steps one uncrashed save takes.
  func stepCount() throws -> Int {
    let disk = try prepare()
    try save(SnapshotFile(path: Self.path, io: wrap(disk)), new)
    return disk.steps
  }

  /// Runs every crash step, with and without a power loss.
  ///
  /// - Returns: The problems found and the number of steps a save takes.
  func run() throws -> (problems: [Problem], steps: Int) {
    let steps = try stepCount()
    var problems: [Problem] = []
    for powerLoss in [false, true] {
      for step in 0...steps {
        problems += try check(step: step, powerLoss: powerLoss)
      }
    }
    return (problems, steps)
  }

  /// A disk holding the old snapshot, written durably.
  private func prepare() throws -> SimFS {
    let disk = SimFS(directories: [Self.directory])
    if let old { try SnapshotFile(path: Self.path, io: disk).save(old) }
    disk.resetSteps()
    return disk
  }

  private func check(step: Int, powerLoss: Bool) throws -> [Problem] {
    let disk = try prepare()
    disk.crashStep = step
    let acknowledged: Bool
    do {
      try save(SnapshotFile(path: Self.path, io: wrap(disk)), new)
      acknowledged = true
    } catch is SimFS.Crash {
      acknowledged = false
    }
    disk.restart(powerLoss: powerLoss)
    func problem(_ kind: Problem.Kind, _ detail: String) -> Problem {
      Problem(kind: kind, step: step, powerLoss: powerLoss, detail: detail)
    }
    let file = SnapshotFile(path: Self.path, io: disk)
    file.removeOrphans()
    var problems: [Problem] = []
    let left = disk.names(in: Self.directory).filter { $0 != "store.mgs" }
    if !left.isEmpty { problems.append(problem(.orphanLeft, "\(left)")) }
    let loaded: StoreVersion?
    do {
      loaded = try file.load()
    } catch {
      return problems + [problem(.torn, "\(error)")]
    }
    let newBytes = SnapshotWriter.encode(new)
    let oldBytes = old.map { SnapshotWriter.encode($0) }
    switch loaded.map({ SnapshotWriter.encode($0) }) {
    case newBytes?:
      break
    case let bytes where bytes == oldBytes:
      if acknowledged {
        problems.append(problem(.acknowledgedSaveLost, "the file holds the old snapshot"))
      }
    case nil:
      problems.append(problem(.oldSnapshotLost, "no file"))
    default:
      problems.append(problem(.foreign, "the file holds neither snapshot"))
    }
    return problems
  }
}

/// A disk that forwards every operation but does nothing for the ones in `skipped`: a writer
/// that forgets a step, for negative controls.
struct SkippingIO: ForwardingFileIO {
  let base: SimFS
  let skipped: Set<SimFS.Operation>

  func sync(_ descriptor: Int32) throws {
    if !skipped.contains(.sync) { try base.sync(descriptor) }
  }
  func syncDirectory(_ path: String) throws {
    if !skipped.contains(.syncDirectory) { try base.syncDirectory(path) }
  }
  func syncData(_ descriptor: Int32) throws {
    if !skipped.contains(.sync) { try base.syncData(descriptor) }
  }
}
