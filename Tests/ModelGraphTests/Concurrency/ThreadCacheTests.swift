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
}
