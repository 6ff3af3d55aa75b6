import Testing

@testable import ModelGraphCore

@Suite("The last inverse slots a session looked up")
struct RecentInverseSlotsTests {
  @Test("the four most recent keys are found with their slots or none; a fifth replaces the oldest")
  func keepsTheLastFour() {
    var recent = RecentInverseSlots()
    #expect(recent.slot(for: 7) == nil)
    for key in 1...4 { recent.remember(key == 3 ? -1 : key * 10, for: key) }
    #expect((1...4).map { recent.slot(for: $0) } == [10, 20, -1, 40])
    recent.remember(50, for: 5)
    #expect(recent.slot(for: 1) == nil)
    #expect((2...5).map { recent.slot(for: $0) } == [20, -1, 40, 50])
    recent.remember(60, for: 6)
    #expect(recent.slot(for: 2) == nil)
    #expect(recent.slot(for: 6) == 60)
  }
}
