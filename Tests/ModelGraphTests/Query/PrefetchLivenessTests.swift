import Foundation
import ModelGraph
import Testing

/// A shelf lists items one way (deleting an item leaves its key in the lists).
class PVShelf: PersistentModel {
  @Attribute var name: String
  @Relationship var items: [PVItem]

  convenience init(name: String) {
    self.init()
    self.name = name
  }
}

/// An item; rare ones are a subclass, so one list holds keys of two entities.
class PVItem: PersistentModel {
  @Attribute var name: String

  convenience init(name: String) {
    self.init()
    self.name = name
  }
}

/// A rare item.
final class PVRareItem: PVItem {
  @Attribute var grade = 1
}

/// A prefetch gives the related objects that navigation reads: lists mixing two entities, dead
/// keys (deleted here or elsewhere, rows reused), held handles, changed objects and empty lists.
@Suite("Query: a prefetch gives only live related objects, as navigation does")
struct PrefetchLivenessTests {
  /// Shelves by name, their items prefetched.
  private static var shelves: FetchDescriptor<PVShelf> {
    var descriptor = FetchDescriptor<PVShelf>(sortBy: [SortDescriptor(\.name)])
    descriptor.relationshipKeyPathsForPrefetching = [\.items]
    return descriptor
  }

  /// Eight items, odd ones rare, on four shelves: S0 holds none, S1 items 0–3, S2 items 3–7,
  /// S3 items 7 and 0; saved.
  private func makeShelves() throws -> ModelContainer {
    let container = try makeInMemoryContainer(PVShelf.self, PVItem.self, PVRareItem.self)
    let context = ModelContext(container)
    let items = (0..<8).map { $0 % 2 == 1 ? PVRareItem(name: "I\($0)") : PVItem(name: "I\($0)") }
    for item in items { context.insert(item) }
    let contents = [[], [0, 1, 2, 3], [3, 4, 5, 6, 7], [7, 0]]
    for (index, content) in contents.enumerated() {
      let shelf = PVShelf(name: "S\(index)")
      context.insert(shelf)
      shelf.items = content.map { items[$0] }
    }
    try context.save()
    return container
  }

  /// Each shelf's items, by name, and whether each is rare.
  private func contents(_ shelves: [PVShelf]) -> [[String]] {
    shelves.map { $0.items.map { $0.name + ($0 is PVRareItem ? "*" : "") } }
  }

  /// What a fresh context reads by navigation, nothing prefetched.
  private func navigated(in container: ModelContainer) throws -> [[String]] {
    let context = ModelContext(container)
    return contents(try context.fetch(FetchDescriptor<PVShelf>(sortBy: [.init(\.name)])))
  }

  @Test("dead keys of both classes, deleted and saved elsewhere, rows reused, are left out")
  func deadKeysOfTwoClasses() throws {
    let container = try makeShelves()
    let writer = ModelContext(container)
    try writer.delete(model: PVItem.self, where: #Predicate { $0.name == "I1" || $0.name == "I4" })
    try writer.save()
    for index in 0..<4 {
      writer.insert(index % 2 == 1 ? PVRareItem(name: "N\(index)") : PVItem(name: "N\(index)"))
    }
    try writer.save()
    let fresh = ModelContext(container)
    let shelves = try fresh.fetch(Self.shelves)
    let expected = [[], ["I0", "I2", "I3*"], ["I3*", "I5*", "I6", "I7*"], ["I7*", "I0"]]
    #expect(contents(shelves) == expected)
    #expect(try navigated(in: container) == expected)
    // The same object is one handle across lists.
    #expect(shelves[1].items[2] === shelves[2].items[0])
  }

  @Test("held handles, a changed object and deletions in the context before the fetch")
  func changesInTheContext() throws {
    let container = try makeShelves()
    let context = ModelContext(container)
    let held = try context.fetch(FetchDescriptor<PVItem>(sortBy: [.init(\.name)]))
    held[2].name = "I2 changed"
    context.delete(held[5])
    // Deleted without a handle: only the row's stamp tells it is gone.
    try context.delete(model: PVItem.self, where: #Predicate { $0.name == "I6" })
    let shelves = try context.fetch(Self.shelves)
    #expect(
      contents(shelves) == [
        [], ["I0", "I1*", "I2 changed", "I3*"], ["I3*", "I4", "I7*"], ["I7*", "I0"],
      ])
    #expect(shelves[1].items[0] === held[0])
    #expect(shelves[1].items[2] === held[2])
    #expect(shelves[2].items.allSatisfy { !$0.isDeleted })
    context.rollback()
    let restored = try context.fetch(Self.shelves)
    #expect(contents(restored) == (try navigated(in: container)))
    #expect(contents(restored)[2] == ["I3*", "I4", "I5*", "I6", "I7*"])
  }

  @Test("only empty lists, and a batch whose every key is dead")
  func emptyAndAllDead() throws {
    let container = try makeShelves()
    let context = ModelContext(container)
    try context.delete(model: PVItem.self, where: #Predicate { $0.name == "I7" || $0.name == "I0" })
    var lastShelf = Self.shelves
    lastShelf.predicate = #Predicate { $0.name == "S3" || $0.name == "S0" }
    let shelves = try context.fetch(lastShelf)
    #expect(shelves.map(\.name) == ["S0", "S3"])
    #expect(contents(shelves) == [[], []])
  }
}
