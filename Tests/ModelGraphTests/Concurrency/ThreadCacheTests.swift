import Foundation
import ModelGraphCore
import Testing

@testable import ModelGraph

/// The per-thread caches of class layouts and key-path facts: one answer per key across
/// threads, whichever thread computes it first.
@Suite("Thread cache: one value per key across threads")
struct ThreadCacheTests {
  final class Box: Sendable {
    let key: Int
    init(_ key: Int) { self.key = key }
  }

  @Test("threads racing on the first use of a key all get the first value stored")
  func racingFirstUse() async {
    let cache = ThreadCache<Int, Box>()
    let made = Locked(0)
    let identities = await withTaskGroup(of: [ObjectIdentifier].self) { group in
      for _ in 0..<8 {
        group.addTask {
          (0..<200).map { round in
            let key = round % 10
            let box = cache.value(for: key) {
              made.withLock { $0 += 1 }
              return Box(key)
            }
            #expect(box.key == key)
            return ObjectIdentifier(box)
          }
        }
      }
      var all: [[ObjectIdentifier]] = []
      for await identities in group { all.append(identities) }
      return all
    }
    // Every thread saw one object per key.
    for key in 0..<10 {
      let seen = Set(
        identities.flatMap { list in stride(from: key, to: 200, by: 10).map { list[$0] } })
      #expect(seen.count == 1, "key \(key)")
    }
    #expect(made.withLock { $0 } >= 10)
  }

  @Test("the class layout of a model class is one object in every thread")
  func classInfoAcrossThreads() async {
    let identities = await withTaskGroup(of: ObjectIdentifier.self) { group in
      for _ in 0..<8 {
        group.addTask { ObjectIdentifier(ModelClassInfo.info(for: CCTrip.self)) }
      }
      var all: Set<ObjectIdentifier> = []
      for await identity in group { all.insert(identity) }
      return all
    }
    #expect(identities.count == 1)
  }

  @Test("objects of several classes made on many threads at once get their own class's layout")
  func objectsMadeAcrossThreads() async {
    let expected = [
      ObjectIdentifier(ModelClassInfo.info(for: CCTrip.self)),
      ObjectIdentifier(ModelClassInfo.info(for: CCStop.self)),
    ]
    let mismatches = await withTaskGroup(of: Int.self) { group in
      for task in 0..<8 {
        group.addTask {
          var mismatches = 0
          for round in 0..<2_000 {
            let object: ModelObject = (round + task) % 2 == 0 ? CCTrip() : CCStop()
            let info = ObjectIdentifier(object._classInfo)
            if info != expected[(round + task) % 2] { mismatches += 1 }
          }
          return mismatches
        }
      }
      return await group.reduce(0, +)
    }
    #expect(mismatches == 0)
  }
}

/// The lock-free table of recent class layouts that making an object reads.
@Suite("Class layouts: the table of recent ones")
struct ClassInfoSlotsTests {
  @Test("a class's layout is found once remembered, and never another class's")
  func findsOnlyItsOwnClass() {
    let slots = ClassInfoSlots()
    let trip = ModelClassInfo.reference(for: CCTrip.self)
    let stop = ModelClassInfo.reference(for: CCStop.self)
    #expect(slots.info(for: CCTrip.self) == nil)
    slots.remember(trip, for: CCTrip.self)
    #expect(slots.info(for: CCTrip.self)?.toOpaque() == trip.toOpaque())
    // Another class's layout in a class's place (as after two classes share a place) is not
    // taken for the class's own.
    slots.remember(stop, for: CCTrip.self)
    #expect(slots.info(for: CCTrip.self) == nil)
    slots.remember(stop, for: CCStop.self)
    #expect(slots.info(for: CCStop.self)?.toOpaque() == stop.toOpaque())
  }
}
