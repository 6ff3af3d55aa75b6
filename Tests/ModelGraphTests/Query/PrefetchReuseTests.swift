import Foundation
import ModelGraph
import Testing

// Models of these tests (prefixed `PB` so the names stay unique in the test target): owners of
// two classes, related objects of three.

/// A shelf holds items (deleted with it) and tags.
class PBShelf: PersistentModel {
  @Attribute var name: String
  @Relationship(deleteRule: .cascade, inverse: \PBItem.shelf) var items: [PBItem]
  @Relationship(inverse: \PBTag.shelf) var tags: [PBTag]

  convenience init(name: String) {
    self.init()
    self.name = name
  }
}

final class PBCornerShelf: PBShelf {
  @Attribute var corner = 0
}

class PBItem: PersistentModel {
  @Attribute var name: String
  @Relationship var shelf: PBShelf?
}

final class PBBook: PBItem {
  @Attribute var pages = 0
}

final class PBGame: PBItem {
  @Attribute var players = 0
}

class PBTag: PersistentModel {
  @Attribute var label: String
  @Relationship var shelf: PBShelf?
}

/// Prefetching resolves every owner's lists in batches and takes an owner's lists from the
/// previous prefetch while they still hold: after each kind of change, a prefetch again gives
/// what the data holds, with the context's own handles, of every class on both sides.
@Suite("Query: prefetched lists taken from the previous prefetch, and of several classes")
struct PrefetchReuseTests {
  /// Each shelf's item names and tag labels, in order, by shelf name.
  private typealias Lists = [String: [[String]]]

  private static func descriptor(
    _ keyPaths: [any PartialKeyPath<PBShelf> & Sendable] = [\.items, \.tags]
  ) -> FetchDescriptor<PBShelf> {
    var descriptor = FetchDescriptor<PBShelf>(sortBy: [SortDescriptor(\.name)])
    descriptor.relationshipKeyPathsForPrefetching = keyPaths
    return descriptor
  }

  /// Eight shelves (every third a corner shelf), each with up to four items of three classes
  /// and up to two tags, saved; and those lists by name.
  private func makeShelves() throws -> (ModelContext, Lists) {
    let context = try makeInMemoryContext(
      PBShelf.self, PBCornerShelf.self, PBItem.self, PBBook.self, PBGame.self, PBTag.self)
    var lists: Lists = [:]
    for index in 0..<8 {
      let shelf = index % 3 == 0 ? PBCornerShelf() : PBShelf()
      shelf.name = "Shelf \(index)"
      context.insert(shelf)
      let items: [PBItem] = (0..<(index % 5)).map { number in
        let item = [PBItem(), PBBook(), PBGame()][(index + number) % 3]
        item.name = "Item \(index).\(number)"
        return item
      }
      shelf.items = items
      let tags: [PBTag] = (0..<(index % 3)).map { number in
        let tag = PBTag()
        tag.label = "Tag \(index).\(number)"
        return tag
      }
      shelf.tags = tags
      lists[shelf.name] = [items.map(\.name), tags.map(\.label)]
    }
    try context.save()
    return (context, lists)
  }

  /// A prefetch of `context` equals `expected`, and every related object is the context's
  /// live handle of its class, whose inverse is its owner.
  @discardableResult
  private func expectPrefetch(
    _ context: ModelContext, _ expected: Lists,
    sourceLocation: SourceLocation = #_sourceLocation
  ) throws -> [PBShelf] {
    let shelves = try context.fetch(Self.descriptor())
    let lists = Dictionary(
      uniqueKeysWithValues: shelves.map { ($0.name, [$0.items.map(\.name), $0.tags.map(\.label)]) })
    #expect(lists == expected, sourceLocation: sourceLocation)
    for shelf in shelves {
      let index = Int(shelf.name.dropFirst("Shelf ".count))!
      #expect((shelf is PBCornerShelf) == (index % 3 == 0), sourceLocation: sourceLocation)
      for item in shelf.items {
        #expect(item.shelf === shelf, sourceLocation: sourceLocation)
        #expect(!item.isDeleted, sourceLocation: sourceLocation)
        #expect(
          context.registeredModel(for: item.persistentModelID) as PBItem? === item,
          sourceLocation: sourceLocation)
      }
      for tag in shelf.tags { #expect(tag.shelf === shelf, sourceLocation: sourceLocation) }
    }
    return shelves
  }

  @Test("related objects of three classes, from owners of two, in order, the same handles again")
  func classesOnBothSides() throws {
    let (context, expected) = try makeShelves()
    let fresh = ModelContext(context.container)
    let shelves = try expectPrefetch(fresh, expected)
    let items = shelves.flatMap(\.items)
    #expect(Set(items.map { String(describing: type(of: $0)) }) == ["PBItem", "PBBook", "PBGame"])
    #expect(shelves.contains { $0 is PBCornerShelf } && shelves.contains { !($0 is PBCornerShelf) })
    // The shelves' handles are dropped, and the same owners fetched again.
    let names = items.map(\.name)
    let again = try expectPrefetch(fresh, expected).flatMap(\.items)
    #expect(again.map(\.name) == names)
    #expect(zip(again, items).allSatisfy { $0 === $1 }, "the same handles")
  }

  @Test("after each kind of change, the next prefetch resolves the changed lists again")
  func changesBetweenPrefetches() throws {
    let (context, saved) = try makeShelves()
    var expected = saved
    var shelves = try expectPrefetch(context, expected)
    func shelf(_ index: Int) -> PBShelf { shelves.first { $0.name == "Shelf \(index)" }! }

    // A to-one written on an item, not saved: it moves to the end of another shelf's list.
    let moved = shelf(4).items[1]
    moved.shelf = shelf(2)
    expected["Shelf 4"]![0].remove(at: 1)
    expected["Shelf 2"]![0].append(moved.name)
    shelves = try expectPrefetch(context, expected)

    // A list reordered.
    shelf(3).items = shelf(3).items.reversed()
    expected["Shelf 3"]![0].reverse()
    shelves = try expectPrefetch(context, expected)

    // An item deleted, not saved.
    context.delete(shelf(1).items[0])
    expected["Shelf 1"]![0].remove(at: 0)
    shelves = try expectPrefetch(context, expected)

    // A new tag inserted on a shelf that had none.
    let tag = PBTag()
    tag.label = "New tag"
    context.insert(tag)
    tag.shelf = shelf(0)
    expected["Shelf 0"]![1].append("New tag")
    shelves = try expectPrefetch(context, expected)

    // Saved: the same lists, from the new version.
    try context.save()
    shelves = try expectPrefetch(context, expected)

    // Changed, then rolled back.
    shelf(7).items = []
    context.rollback()
    shelves = try expectPrefetch(context, expected)

    // Another context moves a tag and saves; this context takes it in at its next fetch.
    let other = ModelContext(context.container)
    let otherShelves = try other.fetch(FetchDescriptor<PBShelf>(sortBy: [SortDescriptor(\.name)]))
    let otherTag = otherShelves[5].tags[0]
    otherTag.shelf = otherShelves[7]
    try other.save()
    expected["Shelf 5"]![1].remove(at: 0)
    expected["Shelf 7"]![1].append(otherTag.label)
    shelves = try expectPrefetch(context, expected)

    // A shelf deleted with its items (cascade), saved.
    context.delete(shelf(4))
    try context.save()
    expected["Shelf 4"] = nil
    try expectPrefetch(context, expected)
  }

  @Test("a prefetch of other key paths, or in another order, after an earlier one")
  func otherKeyPaths() throws {
    let (context, expected) = try makeShelves()
    let orders: [[any PartialKeyPath<PBShelf> & Sendable]] = [
      [\.items], [\.items, \.tags], [\.tags, \.items], [\.tags], [\.tags, \.tags], [\.items],
    ]
    for keyPaths in orders {
      let shelves = try context.fetch(Self.descriptor(keyPaths))
      let lists = Dictionary(
        uniqueKeysWithValues: shelves.map {
          ($0.name, [$0.items.map(\.name), $0.tags.map(\.label)])
        })
      #expect(lists == expected)
    }
    // Owners of which the earlier prefetch had only some: the later one resolves the others.
    var firstHalf = FetchDescriptor<PBShelf>(sortBy: [SortDescriptor(\.name)])
    firstHalf.fetchLimit = 4
    firstHalf.relationshipKeyPathsForPrefetching = [\.items, \.tags]
    _ = try context.fetch(firstHalf)
    try expectPrefetch(context, expected)
  }
}
