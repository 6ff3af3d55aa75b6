import ModelGraph

/// A library's four delete rules: books cascade, members nullify, events deny, histories no
/// action.
func runLibrarySection(_ context: ModelContext) throws {
  print("\n== A library's delete rules")
  let library = Library(name: "Central")
  context.insert(library)
  library.books = [
    Book(title: "Dune", isbn: "978-0441013593"), Book(title: "Emma", isbn: "978-0141439587"),
  ]
  library.members = [Member(name: "Dee"), Member(name: "Eli")]
  library.events = [Event(title: "Poetry night")]
  library.histories = [History(note: "Opened in 1901")]
  try context.save()
  try printCounts(context)

  print("Deleting the library while it hosts an event:")
  context.delete(library)
  do {
    try context.save()
  } catch let error as ModelError {
    report(error)
    context.rollback()
  }

  print("Deleting the event, then the library:")
  context.delete(library.events[0])
  context.delete(library)
  let records = try context.save()
  let isbns = records.compactMap { record -> String? in
    if case .string(let isbn)? = record.preservedValues["isbn"] { isbn } else { nil }
  }.sorted()
  print("  deletion records: \(records.count); preserved ISBNs: \(list(isbns))")
  try printCounts(context)
  for member in try context.fetch(FetchDescriptor<Member>(sortBy: [SortDescriptor(\.name)])) {
    print("  member \(member.name): library \(member.library?.name ?? "none")")
  }
  for history in try context.fetch(FetchDescriptor<History>()) {
    // noAction: the delete did not touch the history; its reference names a deleted object,
    // which reads as nil.
    let library = history.library?.name ?? "nil"
    print("  history \"\(history.note)\" kept, untouched; its library reads \(library)")
  }
}

private func printCounts(_ context: ModelContext) throws {
  let counts = [
    ("libraries", try context.fetchCount(FetchDescriptor<Library>())),
    ("books", try context.fetchCount(FetchDescriptor<Book>())),
    ("members", try context.fetchCount(FetchDescriptor<Member>())),
    ("events", try context.fetchCount(FetchDescriptor<Event>())),
    ("histories", try context.fetchCount(FetchDescriptor<History>())),
  ]
  print("  stored: " + counts.map { "\($0) \($1)" }.joined(separator: ", "))
}
