import Foundation
import Testing

@testable import ModelGraph

/// An unsorted fetch answered by hash-index lookups (class by class, rows ascending) makes its
/// keys as it finds its rows: its offset and limit must still cut the same rows as windowing
/// the whole answer, with saved, deleted and inserted objects.
@Suite("Query: windows of index lookups")
struct LookupWindowTests {
  /// The businesses (and conferences) of `company`, as a deep unsorted fetch returns them.
  static func descriptor(_ company: String, offset: Int?, limit: Int?)
    -> FetchDescriptor<QBusiness>
  {
    var descriptor = FetchDescriptor<QBusiness>(predicate: #Predicate { $0.company == company })
    descriptor.fetchOffset = offset
    descriptor.fetchLimit = limit
    return descriptor
  }

  /// Every window of every company's lookup against filtering the unfiltered fetch (the
  /// same order: class by class, then row) and cutting the window from it.
  static func checkWindows(_ context: ModelContext, _ label: String) throws {
    let all = try context.fetch(FetchDescriptor<QBusiness>())
    var nonEmpty = 0
    for company in QueryFixture.companies {
      let matching = all.filter { $0.company == company }.map(\.name)
      for offset in [nil, 0, 1, 3, matching.count, matching.count + 1] as [Int?] {
        for limit in [nil, 0, 1, 2, 7] as [Int?] {
          let start = min(offset ?? 0, matching.count)
          let end = limit.map { min(matching.count, start + $0) } ?? matching.count
          let want = Array(matching[start..<end])
          let got = try context.fetch(descriptor(company, offset: offset, limit: limit))
          #expect(
            got.map(\.name) == want,
            "\(label): \(company) offset \(offset.map(String.init) ?? "-") limit \(limit.map(String.init) ?? "-")"
          )
          if !want.isEmpty { nonEmpty += 1 }
        }
      }
    }
    #expect(nonEmpty > 40, "\(label): \(nonEmpty) windows had rows")
  }

  @Test("offsets and limits of a lookup cut the rows of the whole answer")
  func windowsOfLookups() throws {
    let fixture = try QueryFixture.make(count: 300, seed: 5)
    let context = fixture.context
    try Self.checkWindows(context, "saved")
    // Unsaved: some businesses deleted, others inserted (rows past the saved ones).
    let businesses = try context.fetch(FetchDescriptor<QBusiness>())
    for business in businesses.enumerated() where business.offset % 3 == 0 {
      context.delete(business.element)
    }
    var random = SplitMix64(seed: 9)
    for index in 300..<340 { context.insert(QueryFixture.makeTrip(index, &random)) }
    try Self.checkWindows(context, "unsaved")
    try context.save()
    try Self.checkWindows(ModelContext(context.container), "saved again, new context")
  }
}
