import Foundation
import Testing

@testable import ModelGraphCore

/// The radix sort of index entries against the comparison sort it replaces: the same keys
/// (bit for bit, so `-0.0` and NaN payloads stay where the comparison sort leaves them) and
/// rows, in the same order.
@Suite("RadixEntrySort: index entries by key, then row")
struct RadixEntrySortTests {
  /// A linear congruential generator, so every run draws the same entries.
  struct Draw {
    var state: UInt64

    mutating func next() -> UInt64 {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return state
    }

    mutating func below(_ bound: UInt64) -> UInt64 { (next() >> 11) % bound }
  }

  /// `entries` sorted by comparing them, as the index did before radix keys.
  static func compared<Key: IndexKey>(_ entries: [(key: Key, row: Int32)]) -> [(
    key: Key, row: Int32
  )] {
    entries.sorted { OrderedIndex<Key>.precedes($0.key, $0.row, $1.key, $1.row) }
  }

  /// Both sorts agree: the same rows in the same places, and keys neither of which precedes
  /// the other at each place.
  static func expectAgreement<Key: IndexKey>(
    _ entries: [(key: Key, row: Int32)], _ comment: Comment
  ) {
    #expect(Key.hasRadixKey)
    let radix = OrderedIndex<Key>.sorted(entries)
    let expected = compared(entries)
    #expect(radix.map(\.row) == expected.map(\.row), comment)
    let sameKeys = zip(radix, expected).allSatisfy {
      !Key.precedes($0.key, $1.key) && !Key.precedes($1.key, $0.key)
    }
    #expect(sameKeys, comment)
    let built = OrderedIndex<Key>(unsorted: entries)
    #expect(built.rows == expected.map(\.row), comment)
  }

  static let counts = [0, 1, 256, 257, 1_000, 20_000]

  @Test("Int64 keys, from the whole range and from a narrow one", arguments: counts)
  func integers(count: Int) {
    var draw = Draw(state: UInt64(count) &+ 3)
    let wide = (0..<count).map { (Int64(bitPattern: draw.next()), Int32($0)) }
    Self.expectAgreement(wide, "wide, \(count)")
    let narrow = (0..<count).map { (Int64(draw.below(40)) - 20, Int32($0)) }
    Self.expectAgreement(narrow, "narrow, \(count)")
    let extremes: [Int64] = [.min, .max, -1, 0, 1]
    let edges = (0..<count).map { (extremes[Int(draw.below(5))], Int32($0)) }
    Self.expectAgreement(edges, "extremes, \(count)")
  }

  @Test("UInt64 keys", arguments: counts)
  func unsignedIntegers(count: Int) {
    var draw = Draw(state: UInt64(count) &+ 5)
    let entries = (0..<count).map { (draw.next() >> draw.below(64), Int32($0)) }
    Self.expectAgreement(entries, "\(count)")
  }

  @Test(
    "Double keys with NaN, signed zeros, infinities and subnormals", arguments: counts)
  func doubles(count: Int) {
    var draw = Draw(state: UInt64(count) &+ 7)
    let specials: [Double] = [
      .nan, -.nan, .infinity, -.infinity, 0.0, -0.0, .leastNonzeroMagnitude,
      -.leastNonzeroMagnitude, .greatestFiniteMagnitude, -.greatestFiniteMagnitude, 1, -1,
    ]
    let entries = (0..<count).map { row -> (key: Double, row: Int32) in
      let key =
        draw.below(3) == 0
        ? specials[Int(draw.below(UInt64(specials.count)))]
        : Double(Int64(draw.below(2_000_000)) - 1_000_000) / 64
      return (key, Int32(row))
    }
    Self.expectAgreement(entries, "\(count)")
  }

  @Test("Date keys and optional dates with nil", arguments: counts)
  func dates(count: Int) {
    var draw = Draw(state: UInt64(count) &+ 11)
    let dates = (0..<count).map {
      (Date(timeIntervalSince1970: Double(draw.below(400_000_000))), Int32($0))
    }
    Self.expectAgreement(dates, "dates, \(count)")
    let optional = (0..<count).map { row -> (key: Date?, row: Int32) in
      switch draw.below(4) {
      case 0: (nil, Int32(row))
      case 1: (Date(timeIntervalSinceReferenceDate: .nan), Int32(row))
      default: (Date(timeIntervalSince1970: Double(draw.below(1_000))), Int32(row))
      }
    }
    Self.expectAgreement(optional, "optional dates, \(count)")
  }

  @Test("entries out of row order still order equal keys by row", arguments: [300, 5_000])
  func rowsOutOfOrder(count: Int) {
    var draw = Draw(state: UInt64(count) &+ 13)
    let entries = (0..<count).map { _ in
      (Int64(draw.below(10)), Int32(truncatingIfNeeded: draw.below(3_000_000)))
    }
    Self.expectAgreement(entries, "\(count)")
  }

  @Test("types without radix keys keep the comparison sort")
  func otherTypes() {
    #expect(!String.hasRadixKey)
    #expect(!UUID.hasRadixKey)
    #expect(!Decimal.hasRadixKey)
    #expect(!Bool.hasRadixKey)
    // An optional integer has no key left for nil.
    #expect(!Optional<Int64>.hasRadixKey)
    #expect(Optional<Double>.hasRadixKey)
  }
}
