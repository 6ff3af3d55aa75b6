import Testing

@testable import ModelGraphCore

@Suite("RowMap: a session's row-keyed change map against a Dictionary")
struct RowMapTests {
  @Test(
    "random sets, updates in place and removals agree with a Dictionary",
    arguments: [8, 300, 5_000])
  func differential(rows: Int) {
    var map = RowMap<SlotSet>()
    var model: [Int: SlotSet] = [:]
    var seed: UInt64 = 0x5EED_0000 &+ UInt64(rows)
    func next(_ bound: Int) -> Int {
      seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return Int((seed >> 33) % UInt64(bound))
    }
    for step in 0..<20_000 {
      let row = next(rows)
      switch next(5) {
      case 0, 1:
        let slot = next(70)
        map[row, default: SlotSet()].insert(slot)
        model[row, default: SlotSet()].insert(slot)
      case 2:
        var slots = SlotSet()
        slots.insert(next(10))
        map[row] = slots
        model[row] = slots
      case 3:
        map[row] = nil
        model[row] = nil
      default:
        #expect(map[row] == model[row], "step \(step) row \(row)")
      }
      #expect(map.count == model.count, "step \(step)")
    }
    #expect(map.isEmpty == model.isEmpty)
    var seen: [Int: SlotSet] = [:]
    for (row, slots) in map {
      #expect(seen[row] == nil, "row \(row) iterated twice")
      seen[row] = slots
    }
    #expect(seen == model)
    #expect(Set(map.keys) == Set(model.keys))
    for row in 0..<rows { #expect(map[row] == model[row]) }
  }

  @Test(
    "rows in order, in strides and in runs of 8 (which share their hash) agree with a Dictionary",
    arguments: [1, 2, 7, 8, 9, 64, 1_024, 4_096])
  func patterns(step: Int) {
    var map = RowMap<UInt32>()
    var model: [Int: UInt32] = [:]
    for index in 0..<3_000 {
      let row = index * step
      map[row] = UInt32(index)
      model[row] = UInt32(index)
    }
    // Remove every third row, from the end, so backward shifts cross runs and wrap around.
    for index in stride(from: 2_999, through: 0, by: -3) {
      map[index * step] = nil
      model[index * step] = nil
    }
    #expect(map.count == model.count)
    for index in 0..<3_000 {
      #expect(map[index * step] == model[index * step], "row \(index * step)")
      #expect(map[index * step + 1] == model[index * step + 1])
    }
    #expect(Dictionary(uniqueKeysWithValues: map.map { ($0.key, $0.value) }) == model)
  }

  @Test("removing every row, in any order, leaves an empty map that still finds nothing")
  func removeAll() {
    var map = RowMap<UInt32>()
    for row in 0..<1_000 { map[row * 7] = UInt32(row) }
    #expect(map.count == 1_000)
    for row in (0..<1_000).reversed() where row % 2 == 0 { map[row * 7] = nil }
    for row in 0..<1_000 where row % 2 == 1 {
      #expect(map[row * 7] == UInt32(row))
      map[row * 7] = nil
    }
    #expect(map.isEmpty)
    #expect(map.map(\.key).isEmpty)
    #expect(map[7] == nil)
  }

  @Test("SessionChanges keeps entities apart and iterates them in order")
  func sessionChanges() {
    var changes = SessionChanges()
    #expect(changes[3] == nil)
    changes[5, default: TableChanges()].inserted.append(1)
    changes[2, default: TableChanges()].updated[9, default: SlotSet()].insert(4)
    #expect(changes.keys == [2, 5])
    #expect(changes[2]?.updated[9]?.contains(4) == true)
    #expect(changes[5]?.inserted == [1])
    #expect(changes[3] == nil)
    changes[2] = nil
    #expect(changes.keys == [5])
    changes.removeAll()
    #expect(changes.keys.isEmpty)
  }

  @Test("sortedByRow gives every row and its value by ascending row")
  func sortedByRow() {
    var map = RowMap<UInt32>()
    var expected: [(key: Int, value: UInt32)] = []
    for step in 0..<5_000 {
      let row = (step * 7_919) % 100_003
      map[row] = UInt32.max - UInt32(step)
      expected.append((row, UInt32.max - UInt32(step)))
    }
    map[4_294_967_295] = 0
    expected.append((4_294_967_295, 0))
    expected.sort { $0.key < $1.key }
    let sorted = map.sortedByRow()
    #expect(sorted.map(\.key) == expected.map(\.key))
    #expect(sorted.map(\.value) == expected.map(\.value))
    #expect(RowMap<UInt32>().sortedByRow().isEmpty)
  }
}
