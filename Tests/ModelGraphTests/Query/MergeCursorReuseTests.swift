import Foundation
import Testing

@testable import ModelGraph
@testable import ModelGraphCore

/// A cached plan's index merge keeps its cursor and arrays from one fetch to the next and
/// restarts them: each fetch finds the rows of its own window, whatever the fetch before it
/// left behind (a stop at its limit, an empty window, a throw), and a context never runs
/// another context's merge.
@Suite("Query: merge cursor reuse")
struct MergeCursorReuseTests {
  let fixture: QueryFixture
  var context: ModelContext { fixture.context }

  init() throws { fixture = try QueryFixture.make(count: 400, seed: 11) }

  static func day(_ number: Int) -> Date {
    QueryFixture.epoch + Double(number) * QueryFixture.day
  }

  /// Every trip with `lo ≤ start < hi`, sorted by start, in a window.
  static func walk(
    _ lo: Int, _ hi: Int, limit: Int?, offset: Int? = nil, ascending: Bool = true
  ) -> FetchDescriptor<QTrip> {
    let lo = day(lo)
    let hi = day(hi)
    var descriptor = FetchDescriptor<QTrip>(
      predicate: #Predicate { $0.start >= lo && $0.start < hi },
      sortBy: [SortDescriptor(\.start, order: ascending ? .forward : .reverse)])
    descriptor.fetchLimit = limit
    descriptor.fetchOffset = offset
    return descriptor
  }

  /// The names `descriptor` should fetch: the trips in its range, sorted by start (ties in
  /// the unsorted fetch order, class by class then row, as the merge breaks them), windowed.
  static func expected(_ descriptor: FetchDescriptor<QTrip>, in context: ModelContext) throws
    -> [String]
  {
    let all = try context.fetch(FetchDescriptor<QTrip>())
    let ascending = descriptor.sortBy[0].order == .forward
    let matching = try all.enumerated().filter { try descriptor.predicate!.evaluate($0.element) }
    let sorted = matching.sorted { left, right in
      if left.element.start != right.element.start {
        return (left.element.start < right.element.start) == ascending
      }
      return left.offset < right.offset
    }
    let start = min(descriptor.fetchOffset ?? 0, sorted.count)
    let end = min(sorted.count, start + (descriptor.fetchLimit ?? sorted.count))
    return sorted[start..<end].map(\.element.name)
  }

  /// Fetches `descriptor` and checks the names against ``expected(_:in:)``.
  static func check(_ descriptor: FetchDescriptor<QTrip>, in context: ModelContext, _ label: String)
    throws
  {
    let want = try expected(descriptor, in: context)
    #expect(try names(context.fetch(descriptor)) == want, "\(label)")
  }

  @Test("windows, limits, offsets and both directions, interleaved, each find their own rows")
  func windowsLimitsAndOffsets() throws {
    let before = context.session.planCache.boundHits
    var random = SplitMix64(seed: 13)
    for round in 0..<160 {
      let lo = Int.random(in: -10...130, using: &random)
      let hi = lo + Int.random(in: -3...45, using: &random)
      let limit = [1, 5, 50, 1_000, nil].randomElement(using: &random)!
      let offset = [nil, 0, 3, 17].randomElement(using: &random)!
      let ascending = Bool.random(using: &random)
      try Self.check(
        Self.walk(lo, hi, limit: limit, offset: offset, ascending: ascending), in: context,
        "\(round): \(lo)..<\(hi) limit \(String(describing: limit)) offset "
          + "\(String(describing: offset)) ascending \(ascending)")
    }
    #expect(context.session.planCache.boundHits > before + 100)
  }

  /// The identity of the plan a fetch of `descriptor` runs, its merge cursor after a run,
  /// and the names it finds. The cursor is returned as the object, not its identifier: kept
  /// alive, its address cannot be taken by a later cursor, so `!==` between two runs means "a
  /// new cursor", never "the same address reused". (The plan is not held: a plan still held is
  /// not refilled by the next fetch.)
  func run(_ descriptor: FetchDescriptor<QTrip>) throws -> (
    plan: ObjectIdentifier, cursor: MergeCursor?, names: [String]
  ) {
    let plan = try context.prepareFetch(descriptor).plan
    let found = try plan.keys().map { context.object(for: $0) as! QTrip }
    return (ObjectIdentifier(plan), plan.mergeState?.cursor, names(found))
  }

  @Test("a repeated fetch of a shape restarts the cursor the last fetch made")
  func cursorIsKept() throws {
    for lo in 0..<3 { _ = try context.fetch(Self.walk(lo, lo + 20, limit: 10)) }
    let first = try run(Self.walk(5, 40, limit: 10))
    let second = try run(Self.walk(60, 70, limit: 10))
    #expect(first.cursor != nil)
    #expect(second.plan == first.plan)
    #expect(second.cursor === first.cursor)
    #expect(first.names == (try Self.expected(Self.walk(5, 40, limit: 10), in: context)))
    #expect(second.names == (try Self.expected(Self.walk(60, 70, limit: 10), in: context)))
  }

  @Test("a run that threw, or stopped early, leaves nothing the next run of the plan reads")
  func afterThrowAndEarlyStop() throws {
    struct Stop: Error {}
    for lo in 0..<3 { _ = try context.fetch(Self.walk(lo, lo + 20, limit: 30)) }
    let descriptor = Self.walk(10, 90, limit: 30)
    let want = try Self.expected(descriptor, in: context)
    let plan = try context.prepareFetch(descriptor).plan
    let reference = try plan.keys()
    #expect(reference.map { (context.object(for: $0) as! QTrip).name } == want)
    // A residual test that throws on the fifth row: the merge stops part way.
    var seen = 0
    #expect(throws: Stop.self) {
      _ = try plan.keys { _ in
        seen += 1
        if seen == 5 { throw Stop() }
        return true
      }
    }
    #expect(try plan.keys() == reference)
    // A residual that refuses every row walks the whole range; one that runs the plan again
    // while the merge is under way gets a merge of its own.
    #expect(try plan.keys { _ in false }.isEmpty)
    #expect(try plan.keys() == reference)
    var inner: [ObjectKey] = []
    let outer = try plan.keys { _ in
      if inner.isEmpty { inner = try plan.keys() }
      return true
    }
    #expect(inner == reference)
    #expect(outer == reference)
    #expect(try plan.keys() == reference)
    // The same shape with an empty window, then a full one.
    try Self.check(Self.walk(50, 50, limit: 30), in: context, "empty")
    try Self.check(Self.walk(200, 300, limit: 30), in: context, "past the end")
    try Self.check(descriptor, in: context, "again")
  }

  @Test("a save between fetches gives the plan new index views: the cursor is made again")
  func saveMakesNewCursor() throws {
    let descriptor = Self.walk(20, 30, limit: 8)
    for _ in 0..<3 { try Self.check(descriptor, in: context, "before") }
    let before = try run(descriptor)
    var random = SplitMix64(seed: 17)
    let trip = QueryFixture.makeTrip(9_500, &random)
    trip.start = Self.day(20)
    context.insert(trip)
    try context.save()
    for _ in 0..<3 { try Self.check(descriptor, in: context, "after the insert") }
    #expect(try context.fetch(descriptor).contains { $0.name == trip.name })
    let after = try run(descriptor)
    #expect(before.cursor != nil)
    #expect(after.cursor != nil && after.cursor !== before.cursor)
    context.delete(trip)
    try context.save()
    for _ in 0..<3 { try Self.check(descriptor, in: context, "after the delete") }
  }

  @Test("a merge without a limit over more rows than it keeps room for keeps no buffer")
  func wideMergeKeepsNoBuffer() throws {
    let wide = try QueryFixture.make(count: IndexMergeState.keptCapacity + 200, seed: 19)
    let descriptor = Self.walk(-1, 200, limit: nil)
    for _ in 0..<3 { _ = try wide.context.fetch(descriptor) }
    // The plan is let go before the next fetch: a plan still held is not refilled.
    let state: IndexMergeState
    do {
      let plan = try wide.context.prepareFetch(descriptor).plan
      #expect(try plan.keys().count == IndexMergeState.keptCapacity + 200)
      state = try #require(plan.mergeState)
    }
    #expect(state.cursor != nil)
    #expect(state.found.capacity <= IndexMergeState.keptCapacity)
    let narrow = try wide.context.prepareFetch(Self.walk(3, 5, limit: nil)).plan
    #expect(narrow.mergeState === state)
    #expect(try !narrow.keys().isEmpty)
    #expect(state.found.capacity > 0)
  }

  @Test("two contexts fetching one shape at once each run their own plan and merge")
  func twoContextsAtOnce() async throws {
    let container = context.container
    let first = ModelContext(container)
    let second = ModelContext(container)
    #expect(first.session.planCache !== second.session.planCache)
    let failures = Locked<[String]>([])
    await withTaskGroup(of: Void.self) { group in
      for seed in [21, 22, 23] as [UInt64] {
        group.addTask {
          let context = ModelContext(container)
          var random = SplitMix64(seed: seed)
          do {
            for round in 0..<60 {
              let lo = Int.random(in: 0...110, using: &random)
              let descriptor = Self.walk(lo, lo + 15, limit: 12)
              let want = try Self.expected(descriptor, in: context)
              let got = names(try context.fetch(descriptor))
              if got != want { failures.withLock { $0.append("\(seed) \(round)") } }
            }
          } catch {
            failures.withLock { $0.append("\(seed): \(error)") }
          }
        }
      }
    }
    #expect(failures.withLock { $0 }.isEmpty)
  }
}
