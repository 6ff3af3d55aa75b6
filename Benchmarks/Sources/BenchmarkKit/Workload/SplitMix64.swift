/// The workload's random generator, exactly as benchmark-workloads.md defines it.
///
/// Every engine is fed from the same sequence, so every engine holds the same rows and answers
/// every query with the same count and check.
package struct SplitMix64 {
  private var state: UInt64

  /// Creates a generator with the given seed (42 for the data set, 43 for query parameters).
  package init(seed: UInt64) {
    state = seed
  }

  /// The next 64-bit value.
  package mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }

  /// `next() % bound`, the workload's `below(n)`.
  package mutating func below(_ bound: UInt64) -> UInt64 {
    next() % bound
  }

  /// `below(n)` as an `Int`.
  package mutating func below(_ bound: Int) -> Int {
    Int(next() % UInt64(bound))
  }

  /// `below(n)` as an `Int64`.
  package mutating func below(_ bound: Int64) -> Int64 {
    Int64(next() % UInt64(bound))
  }
}
