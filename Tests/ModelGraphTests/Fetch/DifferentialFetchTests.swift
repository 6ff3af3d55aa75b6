import Foundation
import ModelGraph
import Testing

class DTrip: PersistentModel {
  @Attribute var name: String
  @Attribute var price: Int
  @Attribute var startDate: Date
  @Attribute var nights: Int16
  @Attribute var rating: Double?
  @Attribute var category: String
}

class DBusinessTrip: DTrip {
  @Attribute var budget: Int
}

class DConferenceTrip: DBusinessTrip {
  @Attribute var talks: Int
}

class DPersonalTrip: DTrip {
  @Attribute var reason: Reason
}

/// The plain-array model of one object.
private struct DRow {
  enum Kind: CaseIterable { case trip, business, conference, personal }

  var kind: Kind
  var name: String
  var price: Int
  var startDate: Date
  var nights: Int16
  var rating: Double?
  var category: String
  var budget = 0
  var talks = 0
  var reason = Reason.vacation

  func makeObject() -> DTrip {
    let object: DTrip
    switch kind {
    case .trip:
      object = DTrip()
    case .business:
      let business = DBusinessTrip()
      business.budget = budget
      object = business
    case .conference:
      let conference = DConferenceTrip()
      conference.budget = budget
      conference.talks = talks
      object = conference
    case .personal:
      let personal = DPersonalTrip()
      personal.reason = reason
      object = personal
    }
    object.name = name
    object.price = price
    object.startDate = startDate
    object.nights = nights
    object.rating = rating
    object.category = category
    return object
  }
}

private let categories = ["beach", "city", "mountain", "lake", "desert"]
private let epoch = Date(timeIntervalSince1970: 1_700_000_000)

/// A row with a unique name; price and start date are unique too (they derive from the number
/// and a random part), so sorts on them need no tiebreaker.
private func makeRow(number: Int, using rng: inout SplitMix64) -> DRow {
  let kind = DRow.Kind.allCases.randomElement(using: &rng)!
  var row = DRow(
    kind: kind, name: "d\(String(number + 100_000).dropFirst())",
    price: Int.random(in: 0..<1000, using: &rng) * 10_000 + number,
    startDate: epoch + Double(Int.random(in: 0..<365, using: &rng)) * 86_400 + Double(number),
    nights: Int16.random(in: 1...14, using: &rng),
    rating: Int.random(in: 0..<10, using: &rng) < 3
      ? nil : Double(Int.random(in: 2...10, using: &rng)) / 2,
    category: categories.randomElement(using: &rng)!)
  row.budget = Int.random(in: 0..<10_000, using: &rng)
  row.talks = Int.random(in: 0..<5, using: &rng)
  row.reason = Reason.allCases.randomElement(using: &rng)!
  return row
}

/// A random filter, as a `#Predicate` and as a plain closure.
private indirect enum DFilter {
  case all
  case priceRange(Int, Int)
  case category(String)
  case notCategory(String)
  case startsAfter(Date)
  case nightsOrCheap(Int16, Int)
  case ratingAtLeast(Double)
  case hasRating
  case isBusiness
  case budgetAbove(Int)
  case personalReason(Reason)
  case nameRange(String, String)
  /// Filters combined with ``CompoundPredicate`` (so the planner sees `&&`, `||` and `!` of
  /// conditions that each could use an index).
  case and([DFilter])
  case or([DFilter])
  case not(DFilter)

  /// A filter; one in four combines two or three others (nested at most `depth` levels).
  static func random(using rng: inout SplitMix64, depth: Int = 2) -> DFilter {
    if depth > 0, Int.random(in: 0..<4, using: &rng) == 0 {
      let parts = (0..<Int.random(in: 2...3, using: &rng)).map { _ in
        random(using: &rng, depth: depth - 1)
      }
      switch Int.random(in: 0..<3, using: &rng) {
      case 0: return .and(parts)
      case 1: return .or(parts)
      default: return .not(parts[0])
      }
    }
    return leaf(using: &rng)
  }

  /// A filter on one or two attributes.
  static func leaf(using rng: inout SplitMix64) -> DFilter {
    let low = Int.random(in: 0..<900, using: &rng) * 10_000
    switch Int.random(in: 0..<12, using: &rng) {
    case 0: return Bool.random(using: &rng) ? .all : .priceRange(low, low + 1_000_000)
    case 1: return .priceRange(low, low + Int.random(in: 0..<3_000_000, using: &rng))
    case 2: return .category(categories.randomElement(using: &rng)!)
    case 3:
      return Bool.random(using: &rng)
        ? .notCategory(categories.randomElement(using: &rng)!)
        : .category(categories.randomElement(using: &rng)!)
    case 4: return .startsAfter(epoch + Double(Int.random(in: 0..<365, using: &rng)) * 86_400)
    case 5: return .nightsOrCheap(Int16.random(in: 1...14, using: &rng), low / 4)
    case 6: return .ratingAtLeast(Double(Int.random(in: 0...10, using: &rng)) / 2)
    case 7: return Bool.random(using: &rng) ? .hasRating : .ratingAtLeast(4.5)
    case 8: return .isBusiness
    case 9: return .budgetAbove(Int.random(in: 0..<10_000, using: &rng))
    case 10: return .personalReason(Reason.allCases.randomElement(using: &rng)!)
    default:
      let a = "d\(String(Int.random(in: 100_000..<103_000, using: &rng)).dropFirst())"
      let b = "d\(String(Int.random(in: 100_000..<103_000, using: &rng)).dropFirst())"
      return .nameRange(min(a, b), max(a, b))
    }
  }

  func predicate<T: DTrip>(_ type: T.Type) -> Predicate<T>? {
    switch self {
    case .all:
      return nil
    case .and(let parts): return CompoundPredicate.and(parts.map { $0.anyPredicate(type) })
    case .or(let parts): return CompoundPredicate.or(parts.map { $0.anyPredicate(type) })
    case .not(let part): return CompoundPredicate.not(part.anyPredicate(type))
    case .priceRange(let low, let high):
      return #Predicate<T> { $0.price >= low && $0.price < high }
    case .category(let category):
      return #Predicate<T> { $0.category == category }
    case .notCategory(let category):
      return #Predicate<T> { $0.category != category }
    case .startsAfter(let date):
      return #Predicate<T> { $0.startDate > date }
    case .nightsOrCheap(let nights, let price):
      return #Predicate<T> { $0.nights == nights || $0.price < price }
    case .ratingAtLeast(let rating):
      return #Predicate<T> { ($0.rating ?? 0) >= rating }
    case .hasRating:
      return #Predicate<T> { $0.rating != nil }
    case .isBusiness:
      return #Predicate<T> { $0 is DBusinessTrip }
    case .budgetAbove(let budget):
      return #Predicate<T> {
        if let trip = $0 as? DBusinessTrip { trip.budget > budget } else { false }
      }
    case .personalReason(let reason):
      return #Predicate<T> {
        if let trip = $0 as? DPersonalTrip { trip.reason == reason } else { false }
      }
    case .nameRange(let low, let high):
      return #Predicate<T> { $0.name >= low && $0.name <= high }
    }
  }

  /// ``predicate(_:)``, with `true` for ``all``.
  func anyPredicate<T: DTrip>(_ type: T.Type) -> Predicate<T> {
    predicate(type) ?? #Predicate<T> { _ in true }
  }

  func matches(_ row: DRow) -> Bool {
    switch self {
    case .all: true
    case .and(let parts): parts.allSatisfy { $0.matches(row) }
    case .or(let parts): parts.contains { $0.matches(row) }
    case .not(let part): !part.matches(row)
    case .priceRange(let low, let high): row.price >= low && row.price < high
    case .category(let category): row.category == category
    case .notCategory(let category): row.category != category
    case .startsAfter(let date): row.startDate > date
    case .nightsOrCheap(let nights, let price): row.nights == nights || row.price < price
    case .ratingAtLeast(let rating): (row.rating ?? 0) >= rating
    case .hasRating: row.rating != nil
    case .isBusiness: row.kind == .business || row.kind == .conference
    case .budgetAbove(let budget):
      (row.kind == .business || row.kind == .conference) && row.budget > budget
    case .personalReason(let reason): row.kind == .personal && row.reason == reason
    case .nameRange(let low, let high): row.name >= low && row.name <= high
    }
  }
}

/// Which classes a fetch reads.
private enum DRoot: CaseIterable {
  case deepTrip
  case exactTrip
  case deepBusiness
  case exactBusiness
  case deepPersonal

  func contains(_ kind: DRow.Kind) -> Bool {
    switch self {
    case .deepTrip: true
    case .exactTrip: kind == .trip
    case .deepBusiness: kind == .business || kind == .conference
    case .exactBusiness: kind == .business
    case .deepPersonal: kind == .personal
    }
  }
}

/// A sort key, with the name as the tiebreaker so every order is total.
private enum DSortKey: CaseIterable {
  case name
  case price
  case startDate
  case nights
  case category

  func descriptors<T: DTrip>(_: T.Type, reverse: Bool) -> [SortDescriptor<T>] {
    let order: SortOrder = reverse ? .reverse : .forward
    let key: SortDescriptor<T> =
      switch self {
      case .name: SortDescriptor(\T.name, order: order)
      case .price: SortDescriptor(\T.price, order: order)
      case .startDate: SortDescriptor(\T.startDate, order: order)
      case .nights: SortDescriptor(\T.nights, order: order)
      case .category: SortDescriptor(\T.category, order: order)
      }
    switch self {
    case .name, .price, .startDate: return [key]
    case .nights, .category: return [key, SortDescriptor(\T.name)]
    }
  }

  func areInIncreasingOrder(_ lhs: DRow, _ rhs: DRow, reverse: Bool) -> Bool {
    func ordered<V: Comparable>(_ a: V, _ b: V) -> Bool? {
      a == b ? nil : (reverse ? a > b : a < b)
    }
    let primary: Bool? =
      switch self {
      case .name: ordered(lhs.name, rhs.name)
      case .price: ordered(lhs.price, rhs.price)
      case .startDate: ordered(lhs.startDate, rhs.startDate)
      case .nights: ordered(lhs.nights, rhs.nights)
      case .category: ordered(lhs.category, rhs.category)
      }
    return primary ?? (lhs.name < rhs.name)
  }
}

private struct DQuery: CustomStringConvertible {
  var root: DRoot
  var filter: DFilter
  var sort: DSortKey
  var reverse: Bool
  var limit: Int?
  var offset: Int?

  static func random(using rng: inout SplitMix64) -> DQuery {
    DQuery(
      root: DRoot.allCases.randomElement(using: &rng)!, filter: .random(using: &rng),
      sort: [DSortKey.name, .price, .startDate, .price, .startDate, .nights, .category]
        .randomElement(using: &rng)!,
      reverse: Bool.random(using: &rng),
      limit: Bool.random(using: &rng) ? Int.random(in: 0..<200, using: &rng) : nil,
      offset: Bool.random(using: &rng) ? Int.random(in: 0..<300, using: &rng) : nil)
  }

  var description: String {
    let order = reverse ? "descending" : "ascending"
    let slice = "limit \(limit.map(String.init) ?? "-"), offset \(offset.map(String.init) ?? "-")"
    return "\(root) \(filter) by \(sort) \(order), \(slice)"
  }

  func expected(_ rows: [DRow]) -> [String] {
    let sorted = rows.filter { root.contains($0.kind) && filter.matches($0) }
      .sorted { sort.areInIncreasingOrder($0, $1, reverse: reverse) }
    let start = min(offset ?? 0, sorted.count)
    let end = limit.map { min(sorted.count, start + $0) } ?? sorted.count
    return sorted[start..<end].map(\.name)
  }

  func run(_ context: ModelContext) throws -> (names: [String], count: Int) {
    switch root {
    case .deepTrip: try run(DTrip.self, deep: true, context)
    case .exactTrip: try run(DTrip.self, deep: false, context)
    case .deepBusiness: try run(DBusinessTrip.self, deep: true, context)
    case .exactBusiness: try run(DBusinessTrip.self, deep: false, context)
    case .deepPersonal: try run(DPersonalTrip.self, deep: true, context)
    }
  }

  private func run<T: DTrip>(_ type: T.Type, deep: Bool, _ context: ModelContext) throws
    -> (names: [String], count: Int)
  {
    var descriptor = FetchDescriptor<T>(
      predicate: filter.predicate(type), sortBy: sort.descriptors(type, reverse: reverse))
    descriptor.includesSubclasses = deep
    descriptor.fetchLimit = limit
    descriptor.fetchOffset = offset
    return (try context.fetch(descriptor).map(\.name), try context.fetchCount(descriptor))
  }
}

/// Runs `queries` random fetches and compares each with the plain-array answer; at least half
/// of them must select something, so the comparison is never vacuous.
/// Runs `queries` random queries on `context` and checks each against `rows`; returns how many
/// had a non-empty answer.
private func compare(
  queries: Int, rows: [DRow], context: ModelContext, using rng: inout SplitMix64
) throws -> Int {
  var nonEmpty = 0
  for _ in 0..<queries {
    let query = DQuery.random(using: &rng)
    let expected = query.expected(rows)
    let (names, count) = try query.run(context)
    #expect(names == expected, "\(query)")
    #expect(count == expected.count, "\(query)")
    if !expected.isEmpty { nonEmpty += 1 }
  }
  return nonEmpty
}

/// One seed by default; `MODELGRAPH_DIFF_SEEDS=first-last` runs a range of seeds instead (a long
/// run, also against PostgreSQL with `MODELGRAPH_TEST_STORE`).
@Suite("Differential fetches against plain arrays")
struct DifferentialFetchTests {
  static let seeds: [UInt64] = {
    let bounds = (ProcessInfo.processInfo.environment["MODELGRAPH_DIFF_SEEDS"] ?? "")
      .split(separator: "-").compactMap { UInt64($0) }
    return bounds.count == 2 && bounds[0] <= bounds[1]
      ? Array(bounds[0]...bounds[1]) : [0x5EED_0001]
  }()

  @Test(
    "random fetches over saved, pending and re-saved data match array filtering",
    arguments: seeds)
  func differential(seed: UInt64) throws {
    var rng = SplitMix64(seed: seed)
    var rows = (0..<2000).map { makeRow(number: $0, using: &rng) }
    let container = try makeInMemoryContainer(DTrip.self)
    let context = ModelContext(container)
    var objects = rows.map { $0.makeObject() }
    for object in objects { context.insert(object) }
    try context.save()
    var nonEmpty = try compare(queries: 16, rows: rows, context: context, using: &rng)

    // Unsaved changes: new prices, deletions, and new objects.
    for index in rows.indices.shuffled(using: &rng).prefix(200) {
      let price = Int.random(in: 0..<1000, using: &rng) * 10_000 + 5000 + index
      rows[index].price = price
      objects[index].price = price
    }
    for index in rows.indices.shuffled(using: &rng).prefix(100).sorted(by: >) {
      context.delete(objects[index])
      rows.remove(at: index)
      objects.remove(at: index)
    }
    for number in 2000..<2150 {
      let row = makeRow(number: number, using: &rng)
      rows.append(row)
      let object = row.makeObject()
      objects.append(object)
      context.insert(object)
    }
    nonEmpty += try compare(queries: 10, rows: rows, context: context, using: &rng)

    try context.save()
    let fresh = ModelContext(container)
    let held = try fresh.fetch(FetchDescriptor<DTrip>())
    #expect(held.count == rows.count)
    nonEmpty += try compare(queries: 6, rows: rows, context: fresh, using: &rng)
    // Many answers have rows, so the comparisons test something: a third at least (about
    // half on average; seed 717 of a long run had 15 of 32).
    #expect(nonEmpty * 3 >= 32, "\(nonEmpty) of 32 answers had rows")
  }
}
