import Foundation
import ModelGraph
import Testing

#if os(Linux)
  /// glibc's `malloc_usable_size` (declared in `malloc.h`, which the Glibc module leaves out):
  /// the bytes usable in the block holding `pointer`.
  @_silgen_name("malloc_usable_size")
  private func mallocUsableSize(_ pointer: UnsafeMutableRawPointer) -> Int
#endif

/// A trip's stop with a few attributes of the common kinds and a to-one relationship (W6's
/// children have this shape).
final class LayoutStop: PersistentModel {
  @Attribute var name: String
  @Attribute var isDone: Bool
  @Attribute var arrival: Date
  @Relationship var owner: LayoutOwner?
}

/// The owner of ``LayoutStop``s.
final class LayoutOwner: PersistentModel {
  @Attribute var title = ""
  @Attribute var budget: Double?
  @Relationship(deleteRule: .cascade, inverse: \LayoutStop.owner) var stops: [LayoutStop]
}

/// Handles are small (the object's head holds its table, context, key, flags and one word for
/// its class layout or rare state), and that packing keeps every state an object can be in.
@Suite("Handle layout and rare per-object state")
struct HandleLayoutTests {
  #if os(Linux)
    @Test("an object with three attributes and a to-one relationship fits in 120 bytes")
    func smallObjectFitsFastSizeClass() {
      // glibc serves requests of up to 120 bytes from its fast bins; a handle above that costs
      // the allocator's slow paths on every fetch and every release.
      let stop = LayoutStop()
      let owner = LayoutOwner()
      #expect(mallocUsableSize(Unmanaged.passUnretained(stop).toOpaque()) <= 120)
      #expect(mallocUsableSize(Unmanaged.passUnretained(owner).toOpaque()) <= 120)
    }
  #endif

  @Test("a new object keeps its relationships until inserted, then saves them")
  func pendingRelationshipsThenInsert() throws {
    let context = try makeInMemoryContext(LayoutOwner.self)
    let owner = LayoutOwner()
    owner.title = "Owner"
    let stop = LayoutStop()
    stop.name = "First"
    stop.isDone = true
    stop.arrival = Date(timeIntervalSince1970: 1_000)
    owner.stops = [stop]
    #expect(owner.stops.map(\.name) == ["First"])
    context.insert(owner)
    #expect(stop.owner === owner)
    try context.save()
    let fetched = try ModelContext(context.container).fetch(FetchDescriptor<LayoutOwner>())
    #expect(fetched.count == 1)
    #expect(fetched.first?.stops.map(\.name) == ["First"])
    #expect(fetched.first?.stops.first?.isDone == true)
    #expect(fetched.first?.stops.first?.arrival == Date(timeIntervalSince1970: 1_000))
  }

  @Test("a new object holding related objects is freed with them, never inserted")
  func pendingRelationshipsFreed() throws {
    weak var weakStop: LayoutStop?
    weak var weakOwner: LayoutOwner?
    do {
      let owner = LayoutOwner()
      let stop = LayoutStop()
      stop.name = "Dropped"
      owner.stops = [stop]
      weakStop = stop
      weakOwner = owner
      #expect(owner.stops.count == 1)
    }
    #expect(weakOwner == nil)
    #expect(weakStop == nil)
  }

  @Test("an inserted object rolled back keeps its relationships and values as a new object")
  func rolledBackKeepsPendingState() throws {
    let context = try makeInMemoryContext(LayoutOwner.self)
    let owner = LayoutOwner()
    owner.title = "Kept"
    let stop = LayoutStop()
    stop.name = "Stop"
    stop.isDone = false
    stop.arrival = .distantPast
    context.insert(owner)
    owner.stops = [stop]
    context.rollback()
    #expect(owner.modelContext == nil)
    #expect(owner.title == "Kept")
    #expect(owner.stops.map(\.name) == ["Stop"])
    #expect(stop.name == "Stop")
    context.insert(owner)
    owner.stops = [stop]
    try context.save()
    let fetched = try ModelContext(context.container).fetch(FetchDescriptor<LayoutStop>())
    #expect(fetched.map(\.name) == ["Stop"])
    #expect(fetched.first?.owner?.title == "Kept")
  }

  @Test("an object fetched from a row reads that row's values, beside an unset attribute")
  func rowFromKey() throws {
    let context = try makeInMemoryContext(LayoutOwner.self)
    for index in 0..<40 {
      let stop = LayoutStop()
      stop.name = "stop \(index)"
      stop.isDone = index % 2 == 0
      stop.arrival = Date(timeIntervalSince1970: Double(index))
      context.insert(stop)
    }
    try context.save()
    // An inserted object with a required attribute left unset: its other attributes read
    // the row, and the unset one reads once written.
    let late = LayoutStop()
    late.name = "late"
    late.arrival = .distantFuture
    context.insert(late)
    #expect(late.name == "late")
    #expect(late.arrival == .distantFuture)
    late.isDone = true
    #expect(late.isDone)
    let fresh = ModelContext(context.container)
    let stops = try fresh.fetch(FetchDescriptor<LayoutStop>())
    #expect(stops.count == 40)
    for stop in stops {
      let index = Int(stop.name.dropFirst("stop ".count))!
      #expect(stop.isDone == (index % 2 == 0))
      #expect(stop.arrival == Date(timeIntervalSince1970: Double(index)))
      #expect(fresh.model(for: stop.persistentModelID) === stop)
    }
  }
}
