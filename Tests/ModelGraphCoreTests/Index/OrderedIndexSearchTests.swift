import Foundation
import Testing

@testable import ModelGraphCore

/// The boundary searches of an ordered index (the start of every range walk), against a
/// linear scan of the keys: empty indexes, runs of equal keys, keys before, among and after
/// the index's, inclusive and exclusive bounds, and `nil` keys of an optional attribute.
@Suite("Index: ordered index boundary search")
struct OrderedIndexSearchTests {
  /// The first position whose key is not before `key` (after it, when `strictly`), by scan.
  static func scanned<Key: IndexKey>(_ keys: [Key], _ key: Key, after strictly: Bool) -> Int {
    keys.firstIndex { strictly ? Key.precedes(key, $0) : !Key.precedes($0, key) } ?? keys.count
  }

  static func index<Key: IndexKey>(_ keys: [Key]) -> OrderedIndex<Key> {
    OrderedIndex(keys: keys, rows: keys.indices.map { Int32($0) })
  }

  @Test("every size up to 70 with runs of equal keys: the boundary a scan finds")
  func boundaries() {
    var random = QueryRandom(seed: 3)
    for count in 0...70 {
      for spread in [1, 3, count + 1] {
        let keys = (0..<count).map { _ in Int64.random(in: 0..<Int64(spread), using: &random) }
          .sorted()
        let index = Self.index(keys)
        for key in -1...Int64(spread) {
          for strictly in [false, true] {
            #expect(
              index.boundary(key, after: strictly) == Self.scanned(keys, key, after: strictly),
              "\(keys) \(key) strictly \(strictly)")
          }
        }
      }
    }
  }

  @Test(
    "indexes of several fence blocks, runs of equal keys across the fences: the boundary a scan finds",
    arguments: [63, 64, 65, 127, 128, 129, 200, 1_000, 4_097])
  func fencedBoundaries(count: Int) {
    var random = QueryRandom(seed: UInt64(count))
    for spread in [1, 3, 50, count + 1] {
      let keys = (0..<count).map { _ in Int64.random(in: 0..<Int64(spread), using: &random) }
        .sorted()
      let index = Self.index(keys)
      #expect(index.fences.count == (count > 64 ? (count + 63) / 64 : 0))
      for key in -1...Int64(spread) {
        for strictly in [false, true] {
          #expect(
            index.boundary(key, after: strictly) == Self.scanned(keys, key, after: strictly),
            "\(count) keys of spread \(spread): \(key) strictly \(strictly)")
        }
      }
    }
  }

  @Test("dates with NaN intervals first, across fence blocks: boundaries and ranges a scan finds")
  func fencedDates() {
    var random = QueryRandom(seed: 9)
    let nan = Date(timeIntervalSinceReferenceDate: .nan)
    let dates = (0..<300).map { _ in
      Date(timeIntervalSinceReferenceDate: Double(Int.random(in: 0..<90, using: &random)))
    }
    let keys = (Array(repeating: nan, count: 70) + dates).sorted { Date.precedes($0, $1) }
    let index = Self.index(keys)
    for key in [nan] + (-1...91).map({ Date(timeIntervalSinceReferenceDate: Double($0)) }) {
      for strictly in [false, true] {
        #expect(index.boundary(key, after: strictly) == Self.scanned(keys, key, after: strictly))
      }
    }
    for low in stride(from: -1, through: 91, by: 7) {
      let lower = Date(timeIntervalSinceReferenceDate: Double(low))
      let upper = Date(timeIntervalSinceReferenceDate: Double(low + 20))
      let range = KeyRange<Date>(lower: (lower, true), upper: (upper, false), excludesNil: true)
      let inside = keys.indices.filter {
        keys[$0] >= lower && keys[$0] < upper && !keys[$0].timeIntervalSinceReferenceDate.isNaN
      }
      #expect(Array(index.positions(range)) == inside, "\(low)")
      #expect(index.lowerPosition(range) == inside.first ?? index.positions(range).lowerBound)
    }
  }

  @Test("ranges: inclusive and exclusive bounds, empty ranges, the positions a scan finds")
  func ranges() {
    let keys: [Int64] = [1, 2, 2, 2, 5, 7, 7, 9]
    let index = Self.index(keys)
    for low in Int64(0)...10 {
      for high in Int64(0)...10 {
        for (lowIn, highIn) in [(true, true), (true, false), (false, true), (false, false)] {
          let range = KeyRange<Int64>(lower: (low, lowIn), upper: (high, highIn), excludesNil: true)
          let inside = keys.indices.filter {
            (lowIn ? keys[$0] >= low : keys[$0] > low)
              && (highIn ? keys[$0] <= high : keys[$0] < high)
          }
          let positions = index.positions(range)
          #expect(Array(positions) == inside, "\(low) \(high) \(lowIn) \(highIn)")
          #expect(index.lowerPosition(range) == inside.first ?? positions.lowerBound)
        }
      }
    }
  }

  @Test("optional keys: nil sorts first, and a bounded range leaves it out")
  func optionalKeys() {
    let keys: [String?] = [nil, nil, "a", "b", "b", "d"]
    let index = Self.index(keys)
    for key in [nil, "", "a", "b", "c", "d", "e"] as [String?] {
      for strictly in [false, true] {
        #expect(index.boundary(key, after: strictly) == Self.scanned(keys, key, after: strictly))
      }
    }
    let below = KeyRange<String?>(lower: nil, upper: ("b", true), excludesNil: true)
    #expect(index.positions(below) == 2..<5)
    #expect(index.positions(.all) == 0..<6)
    #expect(index.positions(.equal(nil)) == 0..<2)
  }
}
