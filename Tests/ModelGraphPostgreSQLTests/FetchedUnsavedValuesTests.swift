import Foundation
import ModelGraph
import Testing

extension PostgreSQLStoreSuites.FetchedResidency.FetchedUnsaved {
  /// Compares `descriptors` over contexts that made the same `change`, in both modes: each
  /// count and fetch in a fresh context.
  static func compare<T: PersistentModel>(
    _ descriptors: [(String, FetchDescriptor<T>)], at url: URL, types: [any PersistentModel.Type],
    label: (T) -> String, change: (ModelContext) throws -> Void
  ) throws {
    let fullContainer = try TestServer.container(types, at: url)
    let partialContainer = try TestServer.container(
      types, at: PostgreSQLStoreSuites.FetchedResidency.fetchedOnly(url))
    for (name, descriptor) in descriptors {
      let full = ModelContext(fullContainer)
      try change(full)
      let expected = try full.fetch(descriptor).map(label)
      let counting = ModelContext(partialContainer)
      try change(counting)
      #expect(try counting.fetchCount(descriptor) == expected.count, "\(name)")
      let partial = ModelContext(partialContainer)
      try change(partial)
      #expect(try partial.fetch(descriptor).map(label) == expected, "\(name)")
    }
  }

  @Test(
    "without pending changes, a fetch still tests and sorts changed objects on their new values")
  func savedOnlyWithChangedValues() throws {
    let url = try TestServer.freshURL()
    try Self.seedDistinct(url)
    var top = FetchDescriptor<Member>(sortBy: [SortDescriptor(\.score, order: .reverse)])
    top.fetchLimit = 1
    var window = top
    (window.fetchOffset, window.fetchLimit) = (1, 2)
    var high = FetchDescriptor<Member>(predicate: #Predicate { $0.score > 30 })
    var descriptors = [("the top score", top), ("a window of top scores", window), ("high", high)]
    for index in descriptors.indices { descriptors[index].1.includePendingChanges = false }
    high.includePendingChanges = true
    descriptors.append(("high, with pending changes", high))
    try Self.compare(descriptors, at: url, types: teamTypes, label: Self.label) { context in
      let last = try #require(
        try context.fetch(FetchDescriptor<Member>(predicate: #Predicate { $0.score == 39 })).first)
      last.score = -1
      context.insert(Member(name: "new", score: 45))
    }
  }

  @Test("a to-one reference to an object the context deleted reads as nil, as in full mode")
  func referenceToDeleted() throws {
    let url = try TestServer.freshURL()
    let seeding = ModelContext(try TestServer.container(deskTypes, at: url))
    let desks = (0..<3).map { Desk(label: "d\($0)") }
    for desk in desks { seeding.insert(desk) }
    for index in 0..<14 {
      seeding.insert(
        Clerk(name: "c\(index)", score: index, desk: index < 12 ? desks[index % 3] : nil))
    }
    try seeding.save()
    var descriptors: [(String, FetchDescriptor<Clerk>)] = []
    func add(_ name: String, _ predicate: Predicate<Clerk>, limit: Int? = nil) {
      var descriptor = FetchDescriptor(predicate: predicate, sortBy: [SortDescriptor(\.score)])
      descriptor.fetchLimit = limit
      descriptors.append((name, descriptor))
    }
    add("at no desk", #Predicate { $0.desk == nil })
    add("the first at no desk", #Predicate { $0.desk == nil }, limit: 2)
    add("at a desk", #Predicate { $0.desk != nil })
    add("the first at a desk", #Predicate { $0.desk != nil }, limit: 3)
    add("low or at no desk", #Predicate { $0.score < 2 || $0.desk == nil }, limit: 5)
    try Self.compare(descriptors, at: url, types: deskTypes, label: \.name) { context in
      let desk = try #require(
        try context.fetch(FetchDescriptor<Desk>(predicate: #Predicate { $0.label == "d0" })).first)
      context.delete(desk)
    }
  }
}
