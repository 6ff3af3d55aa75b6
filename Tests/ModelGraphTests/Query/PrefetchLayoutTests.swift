import Foundation
import Testing

@testable import ModelGraph

/// Two owner classes whose relationship `b` sits at different slots (1 and 0).
final class PLTwo: PersistentModel {
  @Attribute var number: Int
  @Relationship var a: [PLItem]
  @Relationship var b: [PLItem]
}

final class PLOne: PersistentModel {
  @Attribute var number: Int
  @Relationship var b: [PLItem]
}

final class PLItem: PersistentModel {
  @Attribute var number: Int
}

/// A base class whose relationship points at the base class, so a subclass owner can be among
/// the related objects of its own prefetch.
class PLRoot: PersistentModel {
  @Attribute var number: Int
  @Relationship var next: [PLRoot]

  convenience init(number: Int) {
    self.init()
    self.number = number
  }
}

final class PLLeaf: PLRoot {}

/// Prefetched lists are kept by position among the prefetched relationships, not by slot.
@Suite("Query: prefetched lists by position")
struct PrefetchLayoutTests {
  /// A context with business trips, each with expenses, activities and accommodations.
  private func businessTrips() throws -> ModelContext {
    let context = ModelContext(try makeRelationshipTripContainer())
    for index in 0..<12 {
      let trip = makeBusinessTrip("Trip \(index)")
      context.insert(trip)
      trip.expenses = (0..<(index % 3 + 1)).map { RLExpense(amount: index * 10 + $0) }
      trip.activities = (0..<(index % 2 + 1)).map { RLActivity(name: "Act \(index) \($0)") }
    }
    try context.save()
    return context
  }

  @Test("one relationship with a high slot keeps one list per owner; others read the tables")
  func oneListPerOwner() throws {
    let context = try businessTrips()
    var descriptor = FetchDescriptor<RLBusinessTrip>(sortBy: [SortDescriptor(\.name)])
    let plain = try context.fetch(descriptor).map {
      ($0.expenses.map(\.amount), $0.activities.map(\.persistentModelID))
    }
    descriptor.relationshipKeyPathsForPrefetching = [\.expenses]
    let trips = try context.fetch(descriptor)
    let prefetched = try #require(context.prefetched)
    #expect(prefetched.stride == 1)
    #expect(prefetched.count == trips.count)
    let expensesSlot = trips[0]._classInfo.relationshipWrappers.firstIndex { $0.name == "expenses" }
    #expect(expensesSlot == 3)
    #expect(prefetched.positions.firstIndex(of: 0) == expensesSlot)
    #expect(trips.map { $0.expenses.map(\.amount) } == plain.map(\.0))
    #expect(trips.map { $0.activities.map(\.persistentModelID) } == plain.map(\.1))
  }

  @Test("a key path given twice is resolved once and reads the same lists")
  func repeatedKeyPath() throws {
    let context = try businessTrips()
    var descriptor = FetchDescriptor<RLBusinessTrip>(sortBy: [SortDescriptor(\.name)])
    let plain = try context.fetch(descriptor).map { $0.activities.map(\.persistentModelID) }
    descriptor.relationshipKeyPathsForPrefetching = [\.activities, \.expenses, \.activities]
    let trips = try context.fetch(descriptor)
    let prefetched = try #require(context.prefetched)
    #expect(prefetched.stride == 3)
    #expect(prefetched.positions.filter { $0 >= 0 }.sorted() == [0, 1])
    #expect(trips.map { $0.activities.map(\.persistentModelID) } == plain)
    #expect(trips.allSatisfy { prefetched.list(of: $0, slot: 1) != nil })
  }

  @Test("a position whose slot differs between entities is dropped, never misread")
  func conflictingSlotsDropThePosition() throws {
    let context = try makeInMemoryContext(PLTwo.self, PLOne.self, PLItem.self)
    let two = PLTwo()
    two.number = 2
    let one = PLOne()
    one.number = 1
    context.insert(two)
    context.insert(one)
    try context.save()
    let twoEntity = try #require(two._table).entity
    let oneEntity = try #require(one._table).entity
    var layout = PrefetchLayout(count: 2)
    layout.meet(twoEntity, names: ["a", "b"])
    #expect(layout.positions == [0, 1])
    layout.meet(oneEntity, names: ["a", "b"])
    #expect(layout.isDropped == [false, true])
    #expect(layout.positions == [0, -1])
    // Meeting an entity again changes nothing.
    layout.meet(twoEntity, names: ["a", "b"])
    #expect(layout.positions == [0, -1])
    #expect(layout.slotsByEntity[oneEntity.index] == [-1, 0])
  }

  @Test(
    "the lists may hold owners only where an owner's class is a destination or descends from one")
  func listsMayHoldOwners() throws {
    let context = try makeInMemoryContext(
      PLTwo.self, PLOne.self, PLItem.self, PLRoot.self, PLLeaf.self, LTNode.self)
    let catalog = context.session.catalog
    func layout(_ names: [String], meeting entities: String...) throws -> PrefetchLayout {
      var layout = PrefetchLayout(count: names.count)
      for name in entities { layout.meet(try #require(catalog.entity(named: name)), names: names) }
      return layout
    }
    // Items are never owners here.
    #expect(try !layout(["a", "b"], meeting: "PLTwo", "PLOne").listsMayHoldOwners(in: catalog))
    // A tree of one class: the children are nodes.
    #expect(try layout(["children"], meeting: "LTNode").listsMayHoldOwners(in: catalog))
    // A subclass owner prefetching a relationship to its base class.
    #expect(try layout(["next"], meeting: "PLLeaf").listsMayHoldOwners(in: catalog))
    // A name that is no relationship of the owners resolves nothing.
    #expect(try !layout(["children"], meeting: "PLOne").listsMayHoldOwners(in: catalog))
  }

  @Test("a subclass owner that is also a related object keeps the prefetch while it lives")
  func subclassOwnerInItsOwnLists() throws {
    let container = try ModelContainer(
      for: [PLRoot.self, PLLeaf.self],
      configurations: [ModelConfiguration(isStoredInMemoryOnly: true)])
    do {
      let context = ModelContext(container)
      let first = PLLeaf(number: 1)
      let second = PLLeaf(number: 2)
      context.insert(first)
      context.insert(second)
      first.next = [second]
      try context.save()
    }
    weak var dropped: ModelContext?
    do {
      let context = ModelContext(container)
      dropped = context
      var descriptor = FetchDescriptor<PLLeaf>(sortBy: [SortDescriptor(\.number)])
      descriptor.relationshipKeyPathsForPrefetching = [\.next]
      let leaves = try context.fetch(descriptor)
      #expect(leaves.map { $0.next.map(\.number) } == [[2], []])
      #expect(leaves[0].next[0] === leaves[1])
      #expect(context.prefetched != nil)
    }
    #expect(dropped == nil)
  }
}
