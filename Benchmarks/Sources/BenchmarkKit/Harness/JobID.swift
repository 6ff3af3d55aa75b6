/// A job (or sub-job) of the workload, as named in the output.
package enum JobID: String, CaseIterable, Sendable {
  case w1 = "W1"
  case w2 = "W2"
  case w3 = "W3"
  case w4 = "W4"
  case w5 = "W5"
  case w6 = "W6"
  case w7Trip = "W7.trip"
  case w7Business = "W7.business"
  case w7Activity = "W7.activity"
  case w8 = "W8"
  case w9 = "W9"
  case w10Save = "W10.save"
  case w10Load = "W10.load"
  case w11 = "W11"
  case w12 = "W12"
  case w12Threads2 = "W12.threads2"
  case w12Threads4 = "W12.threads4"
  case w13 = "W13"
  case w13Threads4 = "W13.threads4"

  /// The workload id the job belongs to (`W7` for `W7.trip`), as `--jobs` names it.
  package var group: String {
    String(rawValue.prefix { $0 != "." })
  }

  /// Jobs in the order a child runs them: read-only jobs first, then the file round trip on the
  /// full store, then the jobs that change the store (W8, then W9, then W12 on the store W9
  /// left, with one writer thread, then two, then four).
  package static let executionOrder: [JobID] = [
    .w11, .w1, .w2, .w3, .w4, .w5, .w6, .w7Trip, .w7Business, .w7Activity, .w10Save, .w10Load,
    .w8, .w9, .w12, .w12Threads2, .w12Threads4, .w13, .w13Threads4,
  ]

  /// Jobs in the order of the workload table, for reports.
  package static let reportOrder: [JobID] = allCases

  /// How the figure is computed from a run.
  package var figure: Figure {
    switch self {
    case .w1, .w8, .w9: .objectsPerSecond
    case .w2, .w3: .queriesPerSecond(1_000)
    case .w4, .w5, .w6: .milliseconds
    case .w7Trip, .w7Business, .w7Activity: .microseconds
    case .w10Save, .w10Load: .megabytesPerSecond
    case .w11: .bytesPerObject
    case .w12, .w12Threads2, .w12Threads4: .transactionsPerSecond(SmallTransactions.standardCount)
    case .w13, .w13Threads4: .transactionsPerSecond(DurableTransactions.standardCount)
    }
  }

  /// Warm-up runs and timed runs.
  package var runs: (warmups: Int, timed: Int) {
    switch self {
    case .w1: (0, 3)  // the store W11 measures is W1's warm-up
    case .w2, .w3: (1, 5)
    case .w4, .w5, .w6: (1, 20)
    case .w7Trip, .w7Business, .w7Activity: (5, 100)
    case .w8, .w9: (0, 1)  // they change the store: one run, as the workload says
    case .w10Save, .w10Load: (1, 3)
    case .w11: (0, 1)
    // Each run starts with the previous run's new trips deleted (untimed), so runs repeat.
    case .w12, .w12Threads2, .w12Threads4: (1, 3)
    // Each run loads a new file-backed store first (untimed).
    case .w13, .w13Threads4: (0, 3)
    }
  }

  /// The threads that write at once in a W12 job (each with its own context); 1 elsewhere.
  package var writerThreads: Int {
    switch self {
    case .w12Threads2: 2
    case .w12Threads4, .w13Threads4: 4
    default: 1
    }
  }

  /// The job whose answer this one must give too: W12 for the W12 jobs with more writer
  /// threads (the same transactions, split across threads, each landing once).
  package var answersLike: JobID? {
    switch self {
    case .w12Threads2, .w12Threads4: .w12
    case .w13Threads4: .w13
    default: nil
    }
  }
}
