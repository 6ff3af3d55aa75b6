import Foundation
import ModelGraph
import Testing

/// Prefetching the related objects of owners spread thinly over a large store (a few rows in
/// every thousand, as a fetch with a limit by date meets them), with the context's handles
/// held or not and with unsaved changes: the lists equal navigation without prefetching, and
/// each prefetched object is the handle the context gives for its row at every later access.
@Suite("Query: prefetching the children of owners spread over a large store")
struct PrefetchSpreadTests {
  /// The spread libraries (one in a hundred), by name, with books and members
  /// prefetched.
  private static var prefetching: FetchDescriptor<RLLibrary> {
    var descriptor = FetchDescriptor<RLLibrary>(
      predicate: #Predicate { $0.name.starts(with: "Spread") }, sortBy: [SortDescriptor(\.name)])
    descriptor.relationshipKeyPathsForPrefetching = [\.books, \.members]
    return descriptor
  }

  /// The same libraries without prefetching.
  private static var plain: FetchDescriptor<RLLibrary> {
    FetchDescriptor<RLLibrary>(
      predicate: #Predicate { $0.name.starts(with: "Spread") }, sortBy: [SortDescriptor(\.name)])
  }

  /// 4,000 libraries of two books each (every third with a member), saved; those whose index
  /// is a multiple of 100 are the spread ones, whose 80 books lie one pair in each 200 rows of
  /// their table.
  private func makeStore() throws -> ModelContext {
    let context = try makeInMemoryContext(RLLibrary.self)
    for index in 0..<4_000 {
      let library = RLLibrary(name: "\(index % 100 == 0 ? "Spread" : "Library") \(10_000 + index)")
      context.insert(library)
      library.books = [RLBook(title: "Book \(index).0"), RLBook(title: "Book \(index).1")]
      if index % 3 == 0 { library.members = [RLMember(name: "Member \(index)")] }
    }
    try context.save()
    return context
  }

  /// Each library's book titles and member names, read by navigation.
  private func titles(_ libraries: [RLLibrary]) -> [[String]] {
    libraries.map { $0.books.map(\.title) + $0.members.map(\.name) }
  }

  /// What `context` reads with prefetching equals what it reads without, and `expected`; every
  /// prefetched book's library is its owner, and each library's first book is the handle a
  /// later fetch of its title returns.
  private func expectPrefetchEqualsNavigation(
    _ context: ModelContext, _ expected: [[String]],
    sourceLocation: SourceLocation = #_sourceLocation
  ) throws {
    let plain = titles(try context.fetch(Self.plain))
    let libraries = try context.fetch(Self.prefetching)
    #expect(titles(libraries) == plain, sourceLocation: sourceLocation)
    #expect(plain == expected, sourceLocation: sourceLocation)
    for library in libraries {
      for book in library.books {
        #expect(book.library === library, sourceLocation: sourceLocation)
      }
      guard let book = library.books.first else { continue }
      let title = book.title
      let found = try context.fetch(
        FetchDescriptor<RLBook>(predicate: #Predicate { $0.title == title }))
      #expect(found.count == 1 && found.first === book, sourceLocation: sourceLocation)
    }
  }

  /// The titles a fresh store's spread libraries hold.
  private static let saved: [[String]] = (0..<40).map { number in
    let index = number * 100
    return ["Book \(index).0", "Book \(index).1"] + (index % 3 == 0 ? ["Member \(index)"] : [])
  }

  @Test("fresh, again after every handle was let go, and after a fetch of every book")
  func freshAndAgain() throws {
    let context = try makeStore()
    let fresh = ModelContext(context.container)
    try expectPrefetchEqualsNavigation(fresh, Self.saved)
    try expectPrefetchEqualsNavigation(fresh, Self.saved)
    // Every book held at once: the prefetch gives the held handles.
    do {
      let every = try fresh.fetch(FetchDescriptor<RLBook>())
      #expect(every.count == 8_000)
      let held = Set(every.map(ObjectIdentifier.init))
      let spread = try fresh.fetch(Self.prefetching).flatMap(\.books)
      #expect(spread.count == 80)
      #expect(spread.allSatisfy { held.contains(ObjectIdentifier($0)) })
      try expectPrefetchEqualsNavigation(fresh, Self.saved)
    }
    // Let go again: the spread ones are made again.
    try expectPrefetchEqualsNavigation(fresh, Self.saved)
  }

  @Test("held handles: the same objects again, and a second prefetch gives them back")
  func heldHandles() throws {
    let context = try makeStore()
    let libraries = try context.fetch(Self.prefetching)
    let held = libraries.flatMap(\.books) + libraries.flatMap(\.members)
    #expect(held.count == 80 + 14)
    let again = try context.fetch(Self.prefetching)
    let reread = again.flatMap(\.books) + again.flatMap(\.members)
    #expect(reread.count == held.count)
    #expect(zip(reread, held).allSatisfy { $0 === $1 }, "the held handles, not new ones")
  }

  @Test("unsaved deletions, insertions and moves are seen, and rolled back")
  func pendingChanges() throws {
    let context = try makeStore()
    let libraries = try context.fetch(Self.plain)
    let deleted = libraries[3].books[0]
    context.delete(deleted)
    let added = RLBook(title: "Added")
    libraries[5].books.append(added)
    let moved = libraries[7].books[1]
    libraries[8].books.append(moved)
    libraries[9].members = []
    var expected = Self.saved
    expected[3].removeFirst()
    expected[5].insert("Added", at: 2)
    expected[7].remove(at: 1)
    expected[8].insert("Book 700.1", at: 2)
    expected[9] = Array(expected[9].prefix(2))
    try expectPrefetchEqualsNavigation(context, expected)
    let prefetched = try context.fetch(Self.prefetching)
    #expect(!prefetched.flatMap(\.books).contains { $0 === deleted })
    #expect(prefetched[5].books.last === added)
    #expect(prefetched[8].books.last === moved)
    context.rollback()
    try expectPrefetchEqualsNavigation(context, Self.saved)
  }
}
