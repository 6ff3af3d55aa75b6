import Foundation
import ModelGraph
import ModelGraphCore
import Observation
import Testing

/// Prefetching two to-many relationships at once, with handles of the related objects already
/// held (or not) and in every state a handle can be in: the lists equal navigation without
/// prefetching, and a related object that is no longer alive is never in them.
@Suite("Query: prefetching two relationships, with handles held")
struct PrefetchHandleTests {
  /// A library's books and members, by title and name, read by navigation.
  private struct Holdings: Equatable {
    var books: [String]
    var members: [String]
  }

  /// Each library's holdings, in the order of `libraries`.
  private func holdings(_ libraries: [RLLibrary]) -> [Holdings] {
    libraries.map { Holdings(books: $0.books.map(\.title), members: $0.members.map(\.name)) }
  }

  /// Every library, by name, with its books and members prefetched.
  private static var prefetching: FetchDescriptor<RLLibrary> {
    var descriptor = FetchDescriptor<RLLibrary>(sortBy: [SortDescriptor(\.name)])
    descriptor.relationshipKeyPathsForPrefetching = [\.books, \.members]
    return descriptor
  }

  /// Six libraries of up to five books and three members each (the first has none), saved.
  private func makeLibraries() throws -> ModelContext {
    let context = try makeInMemoryContext(RLLibrary.self)
    for index in 0..<6 {
      let library = RLLibrary(name: "Library \(index)")
      context.insert(library)
      library.books = (0..<(index % 6)).map { RLBook(title: "Book \(index).\($0)") }
      library.members = (0..<(index % 4)).map { RLMember(name: "Member \(index).\($0)") }
    }
    try context.save()
    return context
  }

  /// What `context` reads with and without prefetching are equal, and equal `expected`; the
  /// prefetched objects are the context's handles (each book's library is its owner).
  private func expectPrefetchEqualsNavigation(
    _ context: ModelContext, _ expected: [Holdings]? = nil,
    sourceLocation: SourceLocation = #_sourceLocation
  ) throws {
    let plain = holdings(try context.fetch(FetchDescriptor<RLLibrary>(sortBy: [.init(\.name)])))
    let libraries = try context.fetch(Self.prefetching)
    #expect(holdings(libraries) == plain, sourceLocation: sourceLocation)
    if let expected { #expect(plain == expected, sourceLocation: sourceLocation) }
    for library in libraries {
      for book in library.books {
        #expect(book.library === library, sourceLocation: sourceLocation)
        #expect(!book.isDeleted, sourceLocation: sourceLocation)
      }
      for member in library.members {
        #expect(member.library === library, sourceLocation: sourceLocation)
      }
    }
  }

  @Test("both lists equal navigation, in a fresh context and with every handle held")
  func freshAndHeld() throws {
    let context = try makeLibraries()
    let fresh = ModelContext(context.container)
    try expectPrefetchEqualsNavigation(fresh)
    let libraries = try fresh.fetch(Self.prefetching)
    #expect(libraries.first?.books.isEmpty == true, "an empty list")
    #expect(libraries.map(\.books.count) == [0, 1, 2, 3, 4, 5])
    // The handles from the first prefetch are held while a second resolves the same lists.
    let held = libraries.flatMap(\.books) + libraries.flatMap(\.members)
    let again = try fresh.fetch(Self.prefetching)
    let reread = again.flatMap(\.books) + again.flatMap(\.members)
    #expect(reread.count == held.count)
    #expect(zip(reread, held).allSatisfy { $0 === $1 }, "the held handles, not new ones")
  }

  @Test("a held handle deleted in the context is left out; rolled back, it is back")
  func deletedThenRolledBack() throws {
    let context = try makeLibraries()
    let saved = holdings(try context.fetch(Self.prefetching))
    let libraries = try context.fetch(Self.prefetching)
    let book = libraries[3].books[1]
    let member = libraries[2].members[0]
    let title = book.title
    context.delete(book)
    context.delete(member)
    var expected = saved
    expected[3].books.remove(at: 1)
    expected[2].members.remove(at: 0)
    try expectPrefetchEqualsNavigation(context, expected)
    let pending = try context.fetch(Self.prefetching)
    #expect(!pending.flatMap(\.books).contains { $0 === book })
    #expect(!pending.flatMap(\.members).contains { $0 === member })
    context.rollback()
    try expectPrefetchEqualsNavigation(context, saved)
    #expect(try context.fetch(Self.prefetching)[3].books[1].title == title)
  }

  @Test("an inserted object is in its list until rolled back")
  func insertedThenRolledBack() throws {
    let context = try makeLibraries()
    let saved = holdings(try context.fetch(Self.prefetching))
    let libraries = try context.fetch(Self.prefetching)
    let added = RLBook(title: "Added")
    libraries[1].books.append(added)
    var expected = saved
    expected[1].books.append("Added")
    try expectPrefetchEqualsNavigation(context, expected)
    #expect(try context.fetch(Self.prefetching)[1].books.last === added)
    context.rollback()
    try expectPrefetchEqualsNavigation(context, saved)
  }

  @Test("a held handle another context deleted and saved is left out after the refresh")
  func deletedElsewhere() throws {
    let context = try makeLibraries()
    let libraries = try context.fetch(Self.prefetching)
    let saved = holdings(libraries)
    let book = libraries[4].books[2]
    let member = libraries[3].members[1]
    let other = ModelContext(context.container)
    let copies = try other.fetch(FetchDescriptor<RLLibrary>(sortBy: [.init(\.name)]))
    other.delete(copies[4].books[2])
    other.delete(copies[3].members[1])
    try other.save()
    var expected = saved
    expected[4].books.remove(at: 2)
    expected[3].members.remove(at: 1)
    try expectPrefetchEqualsNavigation(context, expected)
    #expect(book.isDeleted)
    #expect(member.isDeleted)
    let refreshed = try context.fetch(Self.prefetching)
    #expect(!refreshed.flatMap(\.books).contains { $0 === book })
    #expect(!refreshed.flatMap(\.members).contains { $0 === member })
  }

  @Test("a prefetched relationship read inside a tracking is tracked")
  func trackedRead() throws {
    let context = try makeLibraries()
    let libraries = try context.fetch(Self.prefetching)
    let changes = Locked(0)
    withObservationTracking {
      _ = libraries[2].books
    } onChange: {
      changes.withLock { $0 += 1 }
    }
    libraries[5].books.append(RLBook(title: "Elsewhere"))
    #expect(changes.withLock { $0 } == 0, "another library's list")
    libraries[2].books.append(RLBook(title: "Here"))
    #expect(changes.withLock { $0 } == 1)
  }
}
