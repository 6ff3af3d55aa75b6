import Foundation
import ModelGraph
import Testing

/// A price with an indexed `Decimal`, an optional indexed one, and the same value again
/// without an index.
class DecimalNaNPrice: PersistentModel, IndexedModel {
  @Attribute var serial: Int
  @Attribute var amount: Decimal
  @Attribute var spare: Decimal?
  @Attribute var plain: Decimal

  class var indexes: [ModelIndex] {
    [.ordered(\DecimalNaNPrice.amount), .ordered(\DecimalNaNPrice.spare)]
  }
}

/// A subclass: a fetch of ``DecimalNaNPrice`` merges the indexes of both classes.
final class DecimalNaNOffer: DecimalNaNPrice {
  @Attribute var until: Int
}

/// `Decimal.nan` in predicates and sorts. Unlike a `Double` NaN, Foundation's `Decimal` orders
/// NaN before every number and takes it as equal to itself (`Decimal.nan < 1`,
/// `Decimal.nan == Decimal.nan`), so `Predicate.evaluate` matches it; a fetch through an index,
/// a scan and a sort must say the same.
@Suite("Decimal NaN in predicates and sorts")
struct DecimalNaNQueryTests {
  static func make() throws -> ModelContext {
    let container = try ModelContainer(
      for: DecimalNaNPrice.self, DecimalNaNOffer.self,
      configurations: ModelConfiguration(isStoredInMemoryOnly: true))
    let context = ModelContext(container)
    for serial in 0..<40 {
      let price: DecimalNaNPrice = serial % 2 == 0 ? DecimalNaNPrice() : DecimalNaNOffer()
      price.serial = serial
      price.amount = serial % 3 == 0 ? .nan : Decimal((serial * 7) % 20) - 5
      price.spare = serial % 5 == 0 ? nil : price.amount
      price.plain = price.amount
      (price as? DecimalNaNOffer)?.until = serial
      context.insert(price)
    }
    try context.save()
    return context
  }

  static func predicates<T: DecimalNaNPrice>(_: T.Type) -> [(String, Predicate<T>)] {
    let (one, nan) = (Decimal(1), Decimal.nan)
    return [
      ("amount < 1", #Predicate { $0.amount < one }),
      ("amount <= 1", #Predicate { $0.amount <= one }),
      ("amount > 1", #Predicate { $0.amount > one }),
      ("amount >= 1", #Predicate { $0.amount >= one }),
      ("amount == nan", #Predicate { $0.amount == nan }),
      ("amount != nan", #Predicate { $0.amount != nan }),
      ("amount < nan", #Predicate { $0.amount < nan }),
      ("amount >= nan", #Predicate { $0.amount >= nan }),
      ("amount > nan", #Predicate { $0.amount > nan }),
      ("plain < 1", #Predicate { $0.plain < one }),
      ("plain == nan", #Predicate { $0.plain == nan }),
      ("plain >= nan", #Predicate { $0.plain >= nan }),
      ("spare < 1", #Predicate { $0.spare.flatMap { $0 < one } ?? false }),
      ("spare == nan", #Predicate { $0.spare == nan }),
    ]
  }

  /// A key's place in sort order: `nil`, then NaN, then numbers ascending.
  static func rank(_ value: Decimal?) -> [Decimal] {
    guard let value else { return [0] }
    return value.isNaN ? [1] : [2, value]
  }

  static func check<T: DecimalNaNPrice>(_: T.Type, in context: ModelContext) throws {
    let all = try context.fetch(FetchDescriptor<T>())
    for (name, predicate) in predicates(T.self) {
      let want = try all.filter { try predicate.evaluate($0) }
      let got = try context.fetch(FetchDescriptor<T>(predicate: predicate))
      #expect(Set(got.map(\.serial)) == Set(want.map(\.serial)), "\(T.self) \(name)")
      #expect(
        try context.fetchCount(FetchDescriptor<T>(predicate: predicate)) == want.count,
        "\(T.self) \(name) count")
    }
    for key in [\T.amount, \T.plain] {
      for ascending in [true, false] {
        for limit in [nil, 4] as [Int?] {
          var sorted = FetchDescriptor<T>(
            sortBy: [SortDescriptor(key, order: ascending ? .forward : .reverse)])
          sorted.fetchLimit = limit
          let keys = all.map { rank($0[keyPath: key]) }.sorted {
            ascending ? $0.lexicographicallyPrecedes($1) : $1.lexicographicallyPrecedes($0)
          }
          #expect(
            try context.fetch(sorted).map { rank($0[keyPath: key]) }
              == Array(keys.prefix(limit ?? keys.count)),
            "\(T.self) sort \(key) ascending \(ascending) limit \(String(describing: limit))")
        }
      }
    }
  }

  @Test("fetches, counts and sorts agree with Predicate.evaluate, through indexes or not")
  func agreeWithEvaluate() throws {
    let context = try Self.make()
    try Self.check(DecimalNaNPrice.self, in: context)
    try Self.check(DecimalNaNOffer.self, in: context)
    let extra = DecimalNaNPrice()
    extra.serial = 99
    extra.amount = .nan
    extra.plain = .nan
    context.insert(extra)
    try Self.check(DecimalNaNPrice.self, in: context)
  }
}

/// A code unique among its class, which may be a `Decimal` NaN.
final class DecimalNaNCode: PersistentModel {
  @Attribute(.unique) var code: Decimal
  @Attribute var label: String
}

/// `Decimal.nan == Decimal.nan` in Swift, so a unique `Decimal` attribute holds one NaN, as
/// it holds one of any other value: a second object with NaN is refused as a second one
/// with 1 is.
@Suite("Decimal NaN in unique attributes")
struct DecimalNaNUniqueTests {
  /// The error of saving two objects with `code`, one saved before the other.
  static func secondSave(_ code: Decimal) throws -> (any Error)? {
    let container = try ModelContainer(
      for: DecimalNaNCode.self, configurations: ModelConfiguration(isStoredInMemoryOnly: true))
    let context = ModelContext(container)
    let first = DecimalNaNCode()
    first.code = code
    first.label = "first"
    context.insert(first)
    try context.save()
    let second = DecimalNaNCode()
    second.code = code
    second.label = "second"
    context.insert(second)
    do {
      try context.save()
      return nil
    } catch {
      return error
    }
  }

  @Test("a second NaN is refused as a second equal number is")
  func refused() throws {
    #expect(try Self.secondSave(1) != nil)
    #expect(try Self.secondSave(.nan) != nil)
  }
}
