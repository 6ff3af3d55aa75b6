import Foundation

@testable import ModelGraphCore

/// Crashes an operation on a store's files at every mutating I/O step k = 0…N of a ``SimFS``,
/// with and without a power loss, then opens the files again as a container does and reports
/// every outcome a durable journal must not have: a failed open, an acknowledged save lost, a
/// state that is neither the one before nor the one after, an orphaned file, or files that
/// cannot take a further save.
struct JournalCrashMatrix {
  /// Holds the store an operation works on, so its final state can be read after a crash.
  final class Live {
    var store: Store?
  }

  static let path = "/sim/store.mgs"

  /// Brings a new disk to the state before the operation; returns the store left open, if any.
  var prepare: (StoreFiles) throws -> JournalFixture.Opened?
  /// The operation; it puts the store whose state counts as "after" into `Live`.
  var operation: (StoreFiles, JournalFixture.Opened?, Live) throws -> Void

  /// Runs every crash step, with and without a power loss.
  ///
  /// - Returns: The problems found and the number of steps the operation takes.
  func run() throws -> (problems: [String], steps: Int) {
    let clean = try attempt(step: nil, powerLoss: false, intended: nil)
    var problems = clean.problems
    for powerLoss in [false, true] {
      for step in 0...clean.steps {
        problems += try attempt(step: step, powerLoss: powerLoss, intended: clean.after).problems
      }
    }
    return (problems, clean.steps)
  }

  /// One attempt; `intended` is the state after the operation when nothing crashes (a crash
  /// may leave it whole on the disk although the operation never returned: the bytes it had
  /// still to write equal those already there).
  private func attempt(step: Int?, powerLoss: Bool, intended: [UInt8]?) throws -> (
    problems: [String], steps: Int, after: [UInt8]?
  ) {
    let disk = SimFS()
    let files = StoreFiles(path: Self.path, io: disk)
    let opened = try prepare(files)
    let before = try JournalFixture.recoveredBytes(files) ?? Self.emptyStoreBytes()
    disk.resetSteps()
    disk.crashStep = step
    let live = Live()
    var acknowledged = false
    do {
      try operation(files, opened, live)
      acknowledged = true
    } catch {}
    let steps = disk.steps
    let after = live.store.map(JournalFixture.bytes)
    disk.restart(powerLoss: powerLoss)
    let label = "step \(step.map(String.init) ?? "-")\(powerLoss ? " + power loss" : "")"
    let reopened: JournalFixture.Opened
    do {
      reopened = try JournalFixture.open(files)
    } catch {
      return (["\(label): the files do not open: \(error)"], steps, after)
    }
    var problems: [String] = []
    let state = JournalFixture.bytes(reopened.store)
    if acknowledged, state != after {
      problems.append("\(label): an acknowledged operation was lost")
    } else if state != before, state != after, state != intended {
      problems.append(
        "\(label): the files hold neither the state before nor the one after "
          + "(\(reopened.report), version \(reopened.store.version.number))")
    }
    let left = Set(disk.names(in: "/sim")).subtracting(["store.mgs", "store.mgs-journal"])
    if !left.isEmpty { problems.append("\(label): left \(left.sorted())") }
    do {
      try JournalFixture.save(step: 90, store: reopened.store)
      let saved = JournalFixture.bytes(reopened.store)
      reopened.journal.close()
      disk.restart(powerLoss: true)
      if try JournalFixture.recoveredBytes(files) != saved {
        problems.append("\(label): a save after recovery did not survive a power loss")
      }
    } catch {
      problems.append("\(label): saving after recovery failed: \(error)")
    }
    return (problems, steps, after)
  }

  /// The state of a store opened on empty files.
  static func emptyStoreBytes() throws -> [UInt8] {
    let store = Store()
    try store.register(SnapshotFixture.descriptions)
    return JournalFixture.bytes(store)
  }
}
