import Foundation
import ModelGraph
import Testing

/// A named `#Predicate` over trips, for parameterized differential tests.
struct PredicateCase: Sendable, CustomTestStringConvertible {
  let name: String
  let predicate: Predicate<QTrip>
  /// Whether the engine evaluates all of it (no `Predicate.evaluate` fallback).
  let isTranslated: Bool

  init(_ name: String, translated: Bool = true, _ predicate: Predicate<QTrip>) {
    self.name = name
    self.predicate = predicate
    self.isTranslated = translated
  }

  var testDescription: String { name }
}

/// One case per operator and language feature the translation covers.
enum PredicateCases {
  static let day = QueryFixture.day
  static let epoch = QueryFixture.epoch

  static var all: [PredicateCase] {
    comparisons + logic + types + optionals + strings + collections + arithmetic
  }

  static var comparisons: [PredicateCase] {
    let three = 3
    let budget = 500.0
    let lo = epoch + 30 * day
    let hi = epoch + 60 * day
    let small: Int16 = 5
    let beach = QKind.beach
    return [
      PredicateCase("Int ==", #Predicate { $0.nights == three }),
      PredicateCase("Int !=", #Predicate { $0.nights != three }),
      PredicateCase("Double <", #Predicate { $0.budget < budget }),
      PredicateCase("Double <=", #Predicate { $0.budget <= budget }),
      PredicateCase("Double >", #Predicate { $0.budget > budget }),
      PredicateCase("Double >=", #Predicate { $0.budget >= budget }),
      PredicateCase("constant on the left", #Predicate { budget > $0.budget }),
      PredicateCase("Date range", #Predicate { $0.start >= lo && $0.start < hi }),
      PredicateCase("Int16 >", #Predicate { $0.small > small }),
      PredicateCase("enum == by raw value", #Predicate { $0.kind == beach }),
      PredicateCase("enum !=", #Predicate { $0.kind != beach }),
      PredicateCase("String ==", #Predicate { $0.name == "Oslo 3" }),
      PredicateCase("String <", #Predicate { $0.name < "Oslo" }),
    ]
  }

  static var logic: [PredicateCase] {
    let three = 3
    let budget = 500.0
    return [
      PredicateCase("&&", #Predicate { $0.nights > three && $0.budget < budget }),
      PredicateCase("||", #Predicate { $0.nights > 7 || $0.budget < 100 }),
      PredicateCase("!", #Predicate { !($0.nights > three) }),
      PredicateCase(
        "nested", #Predicate { ($0.nights < 2 || $0.nights > 8) && !($0.budget > budget) }),
      PredicateCase(
        "ternary", #Predicate { $0.nights > three ? $0.budget > budget : $0.budget < 200 }),
      PredicateCase("true", #Predicate { _ in true }),
      PredicateCase("false", #Predicate { _ in false }),
    ]
  }

  static var types: [PredicateCase] {
    let acme = "Acme"
    let family = QReason.family
    return [
      PredicateCase("is subclass", #Predicate { $0 is QBusiness }),
      PredicateCase("is leaf class", #Predicate { $0 is QConference }),
      PredicateCase(
        "if let as?",
        #Predicate {
          if let business = $0 as? QBusiness { business.company == acme } else { false }
        }),
      PredicateCase("as? chained ==", #Predicate { ($0 as? QPersonal)?.reason == family }),
      PredicateCase(
        "as? with other conditions",
        #Predicate {
          $0.nights > 2 && (($0 as? QConference).flatMap { $0.talks > 1 } ?? false)
        }),
      PredicateCase("not is", #Predicate { !($0 is QPersonal) }),
    ]
  }

  static var optionals: [PredicateCase] {
    let code = "C3"
    let rating = 2.5
    return [
      PredicateCase("== nil", #Predicate { $0.rating == nil }),
      PredicateCase("!= nil", #Predicate { $0.code != nil }),
      PredicateCase("optional ==", #Predicate { $0.code == code }),
      PredicateCase("optional !=", #Predicate { $0.code != code }),
      PredicateCase("??", #Predicate { ($0.rating ?? 0) >= rating }),
      PredicateCase("flatMap", #Predicate { $0.rating.flatMap { $0 > 3 } ?? false }),
      PredicateCase(
        "if let value", #Predicate { if let value = $0.rating { value < 2 } else { true } }),
    ]
  }

  static var strings: [PredicateCase] {
    let cafe = "caf"
    let upper = "CAFE"
    let oslo = "Oslo"
    let same = ComparisonResult.orderedSame
    let ascending = ComparisonResult.orderedAscending
    let zurich = "zurich 5"
    let kelvin = "K"
    let accent = "e"
    let empty = ""
    let digits = "99"
    let accented = "É"
    let lower = "oslo"
    let combining = "\u{301}"
    return [
      PredicateCase("contains", #Predicate { $0.name.contains(cafe) }),
      PredicateCase("contains non-ASCII haystacks", #Predicate { $0.name.contains(accent) }),
      PredicateCase("contains canonical equivalent", #Predicate { $0.name.contains(kelvin) }),
      PredicateCase("contains empty", #Predicate { $0.name.contains(empty) }),
      PredicateCase("starts(with:)", #Predicate { $0.name.starts(with: oslo) }),
      PredicateCase(
        "localizedStandardContains", #Predicate { $0.name.localizedStandardContains(upper) }),
      PredicateCase(
        "localizedStandardContains empty", #Predicate { $0.name.localizedStandardContains(empty) }),
      PredicateCase(
        "caseInsensitiveCompare ==",
        #Predicate { $0.name.caseInsensitiveCompare(zurich) == same }),
      PredicateCase(
        "caseInsensitiveCompare <",
        #Predicate { $0.name.caseInsensitiveCompare(oslo) == ascending }),
      PredicateCase("optional string contains", #Predicate { $0.code?.contains("1") ?? false }),
      PredicateCase(
        "localizedStandardContains without letters",
        #Predicate { $0.name.localizedStandardContains(digits) }),
      PredicateCase(
        "localizedStandardContains non-ASCII needle",
        #Predicate { $0.name.localizedStandardContains(accented) }),
      PredicateCase(
        "localizedStandardContains folds case",
        #Predicate { $0.name.localizedStandardContains(lower) }),
      PredicateCase("contains a combining mark", #Predicate { $0.name.contains(combining) }),
      PredicateCase("starts(with:) empty", #Predicate { $0.name.starts(with: empty) }),
      PredicateCase(
        "optional string localizedStandardContains",
        #Predicate { $0.code?.localizedStandardContains("c1") ?? false }),
      PredicateCase("String == empty", #Predicate { $0.name == empty }),
      PredicateCase("optional string == nil", #Predicate { $0.code == nil }),
      PredicateCase("isEmpty on a string", #Predicate { $0.name.isEmpty }),
      PredicateCase("count on a string", #Predicate { $0.name.count > 8 }),
    ]
  }

  static var collections: [PredicateCase] {
    let names = ["Oslo 3", "cafe 10", "Trip 12", "nobody"]
    let kinds = [QKind.city, QKind.mountain]
    let nights: Set = [1, 4, 8]
    let red = "red"
    let rate = 100.0
    let lo = 3
    let hi = 6
    let budgetLow = 200.0
    let budgetHigh = 400.0
    return [
      PredicateCase("IN strings", #Predicate { names.contains($0.name) }),
      PredicateCase("IN enums", #Predicate { kinds.contains($0.kind) }),
      PredicateCase("IN set", #Predicate { nights.contains($0.nights) }),
      PredicateCase("array attribute contains", #Predicate { $0.tags.contains(red) }),
      PredicateCase("array attribute isEmpty", #Predicate { $0.tags.isEmpty }),
      PredicateCase("array attribute count", #Predicate { $0.tags.count == 1 }),
      PredicateCase(
        "array contains(where:)", #Predicate { $0.tags.contains { $0.starts(with: "r") } }),
      PredicateCase(
        "to-many contains(where:)", #Predicate { $0.stays.contains { $0.rate > rate } }),
      PredicateCase("to-many allSatisfy", #Predicate { $0.stays.allSatisfy { $0.rate < 150 } }),
      PredicateCase("to-many isEmpty", #Predicate { $0.stays.isEmpty }),
      PredicateCase("to-many count", #Predicate { $0.stays.count >= 2 }),
      PredicateCase(
        "nested closure uses outer object",
        #Predicate { trip in trip.stays.contains { $0.rate > trip.budget / 5 } }),
      PredicateCase("half-open range", #Predicate { (lo..<hi).contains($0.nights) }),
      PredicateCase("closed range", #Predicate { (budgetLow...budgetHigh).contains($0.budget) }),
    ]
  }

  static var arithmetic: [PredicateCase] {
    let seven = 7
    let two = 2
    let half = 2.0
    return [
      PredicateCase("* and +", #Predicate { $0.nights * two + 1 > seven }),
      PredicateCase("-", #Predicate { $0.budget - 100.0 < 300 }),
      PredicateCase("/ Double", #Predicate { $0.budget / half > 200 }),
      PredicateCase("/ Int", #Predicate { $0.nights / two == 2 }),
      PredicateCase("%", #Predicate { $0.nights % two == 0 }),
      PredicateCase("unary -", #Predicate { -$0.nights < -3 }),
      PredicateCase("Int16 arithmetic", #Predicate { $0.small * 2 > 10 }),
    ]
  }

  /// Predicates the engine cannot fully translate; Foundation evaluates them on candidates.
  static var fallbacks: [PredicateCase] {
    let family = QReason.family
    let three = 3
    return [
      PredicateCase("computed property", translated: false, #Predicate { $0.label == "Oslo 3!" }),
      PredicateCase(
        "computed property and an index", translated: false,
        #Predicate { $0.nights == three && $0.label.contains("a") }),
      PredicateCase("transient property", translated: false, #Predicate { $0.scratch == 0 }),
      PredicateCase(
        "computed property with a setter", translated: false,
        #Predicate { $0.shout.contains("OSLO") }),
      PredicateCase(
        "enum ordering", translated: false,
        #Predicate { ($0 as? QPersonal).flatMap { $0.reason < family } ?? false }),
    ]
  }
}
