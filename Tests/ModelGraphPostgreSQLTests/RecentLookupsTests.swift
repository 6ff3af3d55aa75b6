import Testing

@testable import ModelGraphPostgreSQL

@Suite("Recent lookups") struct RecentLookupsTests {
  @Test(
    "recent lookups find what was remembered, drop the oldest past their capacity, and forget all")
  func recentLookups() {
    var recent = RecentLookups<String, Int>(capacity: 3)
    #expect(recent["a"] == nil)
    for (index, key) in ["a", "b", "c"].enumerated() { recent.remember(key, index) }
    #expect(recent["a"] == 0)
    #expect(recent["c"] == 2)
    recent.remember("d", 3)
    #expect(recent["a"] == nil)
    #expect(recent["b"] == 1)
    #expect(recent["d"] == 3)
    recent.removeAll()
    #expect(recent["b"] == nil)
    #expect(recent["d"] == nil)
  }
}
