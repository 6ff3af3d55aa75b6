import Foundation
import ModelGraph
import Testing

/// Prefetching related objects whose unsaved changes outlived their handles: a handle the
/// prefetch makes again shows the change (changed or inserted) exactly where the session holds
/// one, whether or not other objects of the class or the owners' class have unsaved changes.
@Suite("Query: prefetched handles made again keep their unsaved state")
struct PrefetchUnsavedStateTests {
  /// Every library, by name, with its books prefetched.
  private static var prefetching: FetchDescriptor<RLLibrary> {
    var descriptor = FetchDescriptor<RLLibrary>(sortBy: [SortDescriptor(\.name)])
    descriptor.relationshipKeyPathsForPrefetching = [\.books]
    return descriptor
  }

  /// Four libraries of three books each, saved.
  private func makeLibraries() throws -> ModelContext {
    let context = try makeInMemoryContext(RLLibrary.self)
    for index in 0..<4 {
      let library = RLLibrary(name: "Library \(index)")
      context.insert(library)
      library.books = (0..<3).map { RLBook(title: "Book \(index).\($0)") }
    }
    try context.save()
    return context
  }

  /// Each library's books as title and whether the handle has unsaved changes.
  private func books(_ libraries: [RLLibrary]) -> [[String]] {
    libraries.map { $0.books.map { "\($0.title)\($0.hasChanges ? " *" : "")" } }
  }

  @Test("a changed and an inserted book, their handles let go, are prefetched as changed")
  func changedAndInserted() throws {
    let context = try makeLibraries()
    do {
      let libraries = try context.fetch(Self.prefetching)
      libraries[1].books[0].title = "Changed"
      libraries[2].books.append(RLBook(title: "New"))
    }
    let libraries = try context.fetch(Self.prefetching)
    #expect(
      books(libraries) == [
        ["Book 0.0", "Book 0.1", "Book 0.2"],
        ["Changed *", "Book 1.1", "Book 1.2"],
        ["Book 2.0", "Book 2.1", "Book 2.2", "New *"],
        ["Book 3.0", "Book 3.1", "Book 3.2"],
      ])
    context.rollback()
    #expect(books(try context.fetch(Self.prefetching)).joined().allSatisfy { !$0.hasSuffix("*") })
  }

  @Test("only the owners changed: the books prefetched have no unsaved changes")
  func ownersChanged() throws {
    let context = try makeLibraries()
    do {
      let libraries = try context.fetch(FetchDescriptor<RLLibrary>())
      for library in libraries { library.name += "!" }
    }
    let libraries = try context.fetch(Self.prefetching)
    #expect(libraries.allSatisfy { $0.hasChanges })
    #expect(libraries.map(\.books.count) == [3, 3, 3, 3])
    #expect(libraries.flatMap(\.books).allSatisfy { !$0.hasChanges })
  }

  @Test("a book deleted in the context, its handle let go, is left out until rolled back")
  func deletedInContext() throws {
    let context = try makeLibraries()
    do {
      let libraries = try context.fetch(Self.prefetching)
      context.delete(libraries[3].books[1])
    }
    #expect(try context.fetch(Self.prefetching)[3].books.map(\.title) == ["Book 3.0", "Book 3.2"])
    context.rollback()
    #expect(
      try context.fetch(Self.prefetching)[3].books.map(\.title)
        == ["Book 3.0", "Book 3.1", "Book 3.2"])
  }
}
