import AppNames
import ModelGraph

// The README's dependency snippet, used: a model, a container, a save, a fetch with the
// SwiftData spelling. Exits non-zero when the fetch does not find what was saved.

class Trip: PersistentModel {
  @Attribute(.unique) var id: UUID
  @Attribute var name: String

  convenience init(name: String) {
    self.init()
    self.id = UUID()
    self.name = name
  }
}

let container = try ModelContainer(
  for: Trip.self, configurations: ModelConfiguration(isStoredInMemoryOnly: true))
let context = ModelContext(container)
context.insert(Trip(name: "Lisbon"))
context.insert(Trip(name: "Oslo"))
try context.save()
let wanted = "Lisbon"
let found = try context.fetch(FetchDescriptor(predicate: #Predicate<Trip> { $0.name == wanted }))
guard found.map(\.name) == ["Lisbon"] else {
  print("consumer: expected [Lisbon], fetched \(found.map(\.name))")
  exit(1)
}
// The engine types an app names come with `import ModelGraph`.
let identifier: PersistentIdentifier = found[0].persistentModelID
let rule: DeleteRule = .cascade
let durability: Durability = .full
print("consumer: \(identifier.entityName), \(rule), \(durability)")
// The app's own Table, Session, Store and Column, named in type position: ModelGraph's engine
// types of these names are not in scope ("'Table' is ambiguous for type lookup" otherwise).
let table: Table = Table(name: "orders")
let session: Session = Session(user: "ana")
let store: Store = Store(city: "Porto")
let column: Column = Column(title: "total")
let names = [table.name, session.user, store.city, column.title]
guard names == ["orders", "ana", "Porto", "total"] else {
  print("consumer: the app's own types read \(names)")
  exit(1)
}
print("consumer: ModelGraph by version works (fetched \(found[0].name))")
