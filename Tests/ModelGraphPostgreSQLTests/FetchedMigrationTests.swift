import Foundation
import ModelGraph
import Testing

@testable import ModelGraphPostgreSQL

extension PostgreSQLStoreSuites.FetchedResidency {
  /// With `residency=fetched` a migration plan's lightweight stages run in the database.
  @Suite("Migration in the database") struct FetchedMigration {
    /// Three products (two named "Lamp"), two on shelf A, one related to another.
    static func seedVersion1(_ url: URL) throws -> [String: PersistentIdentifier] {
      let context = ModelContext(
        try ModelContainer(for: ShopV1.models, configurations: [ModelConfiguration(url: url)]))
      let shelf = ShopV1.Shelf()
      shelf.label = "A"
      context.insert(shelf)
      var identifiers: [String: PersistentIdentifier] = [:]
      var products: [ShopV1.Product] = []
      for (name, price) in [("Lamp", 30), ("Chair", 50), ("Lamp", 35)] {
        let product = ShopV1.Product()
        product.name = name
        product.price = price
        product.sku = "s\(price)"
        context.insert(product)
        products.append(product)
      }
      products[0].shelf = shelf
      products[2].shelf = shelf
      products[1].related = [products[0]]
      try context.save()
      identifiers["shelf"] = shelf.persistentModelID
      for product in products {
        identifiers["\(product.name)\(product.price)"] = product.persistentModelID
      }
      return identifiers
    }

    static func open(
      _ types: [any PersistentModel.Type], plan: (any SchemaMigrationPlan.Type)?, at url: URL
    ) throws -> ModelContainer {
      try ModelContainer(
        for: types, migrationPlan: plan,
        configurations: [
          ModelConfiguration(url: PostgreSQLStoreSuites.FetchedResidency.fetchedOnly(url))
        ])
    }

    static func columns(_ table: String, at url: URL) throws -> [String?] {
      try TestServer.query(
        "SELECT column_name FROM information_schema.columns WHERE table_schema = "
          + "current_schema() AND table_name = '\(table)' ORDER BY column_name", at: url)
    }

    @Test(
      "a lightweight stage runs as DDL: a renamed attribute keeps its values, an added one gets its initial value, a derived relationship is filled"
    )
    func lightweightStage() throws {
      let url = try TestServer.freshURL()
      let ids = try Self.seedVersion1(url)
      let stored = try TestServer.query("SELECT version FROM mg_state", at: url)
      let container = try Self.open(ShopV2.models, plan: ShopPlan.self, at: url)
      let store = try #require(container.store.persistence as? PostgreSQLStore)
      #expect(store.keepsOnlyFetched)
      // Nothing was read into memory to migrate.
      let version = container.store.version
      let productTable = try #require(version.catalog.entity(named: "Product")).index
      #expect(version.tables[productTable].liveCount == 0)
      #expect(
        try Self.columns("Product", at: url) == [
          "_version", "id", "note", "price", "shelf", "stock", "title",
        ])
      #expect(
        try TestServer.query("SELECT version FROM mg_state", at: url)
          == [stored[0].flatMap(Int.init).map { String($0 + 1) }])
      let context = ModelContext(container)
      let products = try context.fetch(
        FetchDescriptor<ShopV2.Product>(sortBy: [SortDescriptor(\.price)]))
      #expect(products.map(\.title) == ["Lamp", "Lamp", "Chair"])
      #expect(products.map(\.stock) == [5, 5, 5])
      #expect(products.map(\.note) == [nil, nil, nil])
      #expect(products.map(\.persistentModelID) == [ids["Lamp30"], ids["Lamp35"], ids["Chair50"]])
      #expect(products[2].similar.map(\.persistentModelID) == [ids["Lamp30"]])
      let shelf = try #require(try context.fetch(FetchDescriptor<ShopV2.Shelf>()).first)
      #expect(shelf.products.map(\.persistentModelID) == [ids["Lamp30"], ids["Lamp35"]])
      #expect(
        try TestServer.query(
          "SELECT indexname FROM pg_indexes WHERE schemaname = current_schema() AND "
            + "tablename = 'Product' AND indexname LIKE '%.index'",
          at: url) == ["Product.price.index"])
      // The new class has its table; saves go on.
      let supplier = ShopV2.Supplier()
      supplier.company = "Acme"
      context.insert(supplier)
      products[0].stock = 2
      try context.save()
      #expect(try TestServer.query("SELECT count(*) FROM \"Supplier\"", at: url) == ["1"])
      // A store opened later, with every object, reads the migrated schema as it is.
      let reopened = ModelContext(
        try ModelContainer(
          for: ShopV2.models, migrationPlan: ShopPlan.self,
          configurations: [ModelConfiguration(url: url)]))
      let all = try reopened.fetch(
        FetchDescriptor<ShopV2.Product>(sortBy: [SortDescriptor(\.price)]))
      #expect(all.map(\.stock) == [2, 5, 5])
      #expect(all.map(\.title) == ["Lamp", "Lamp", "Chair"])
    }

    @Test(
      "a failing stage rolls back every stage before it: the database keeps its schema and data, and says why"
    )
    func failingStage() throws {
      let url = try TestServer.freshURL()
      _ = try Self.seedVersion1(url)
      let version = try TestServer.query("SELECT version FROM mg_state", at: url)
      let columns = try Self.columns("Product", at: url)
      let error = #expect(throws: MigrationError.self) {
        _ = try Self.open(ShopV3.models, plan: ShopUniquePlan.self, at: url)
      }
      #expect(error?.code == .invalidData)
      #expect(error?.message.contains("lightweight stage 2.0.0 -> 3.0.0") == true)
      #expect(error?.message.contains("value Lamp is stored more than once") == true)
      #expect(try Self.columns("Product", at: url) == columns)
      #expect(try TestServer.query("SELECT version FROM mg_state", at: url) == version)
      #expect(
        try TestServer.query("SELECT to_regclass('\"Supplier\"')::text", at: url) == [nil])
      // The old classes still open, with every value.
      let context = ModelContext(try Self.open(ShopV1.models, plan: nil, at: url))
      let products = try context.fetch(
        FetchDescriptor<ShopV1.Product>(sortBy: [SortDescriptor(\.price)]))
      #expect(products.map(\.name) == ["Lamp", "Lamp", "Chair"])
      #expect(products.map(\.sku) == ["s30", "s35", "s50"])
    }

    @Test(
      "a custom stage finds each object's new version by identifier, also after it changed others"
    )
    func customStageByIdentifier() throws {
      let url = try TestServer.freshURL()
      _ = try Self.seedVersion1(url)
      let context = ModelContext(try Self.open(ShopV2.models, plan: ShopCustomPlan.self, at: url))
      #expect(try context.fetch(FetchDescriptor<ShopV2.Product>()).map(\.stock) == [1, 1, 1])
      #expect(try TestServer.query("SELECT DISTINCT stock FROM \"Product\"", at: url) == ["1"])
    }

    @Test("without a plan, an added optional attribute and a new layout migrate in the database")
    func automatic() throws {
      let url = try TestServer.freshURL()
      do {
        let context = ModelContext(try TestServer.container([FirstLayout.Note.self], at: url))
        let note = FirstLayout.Note()
        note.title = "kept"
        note.pages = 12
        context.insert(note)
        try context.save()
      }
      let context = ModelContext(try Self.open([SecondLayout.Note.self], plan: nil, at: url))
      let note = try #require(try context.fetch(FetchDescriptor<SecondLayout.Note>()).first)
      #expect(note.title == "kept" && note.pages == 12)
      let again = ModelContext(
        try TestServer.container([SecondLayout.Note.self], at: url))
      #expect(try again.fetch(FetchDescriptor<SecondLayout.Note>()).map(\.pages) == [12])
    }
  }
}

extension PostgreSQLStoreSuites.FetchedResidency.FetchedMigration {
  /// Two boxes: one labelled, holding a plain and a special item, its first the special one;
  /// `labelled: false` leaves the second box without a label.
  static func seedCrates(_ url: URL, labelled: Bool, shared: Bool = false) throws
    -> [PersistentIdentifier]
  {
    let context = ModelContext(
      try ModelContainer(for: CrateV1.models, configurations: [ModelConfiguration(url: url)]))
    let plain = CrateV1.Item()
    plain.name = "plain"
    let special = CrateV1.Special()
    special.name = "special"
    special.power = 9
    let one = CrateV1.Box()
    one.label = "one"
    let two = CrateV1.Box()
    two.label = labelled ? "two" : nil
    for object in [plain, special, one, two] as [any PersistentModel] { context.insert(object) }
    one.items = [plain, special]
    one.first = special
    two.first = plain
    if shared { two.items = [plain] }
    try context.save()
    return [one, two, plain].map(\.persistentModelID)
  }

  @Test(
    "a removed class: its table is dropped and references to its objects are cleared; a to-one that became to-many keeps its object"
  )
  func removedClass() throws {
    let url = try TestServer.freshURL()
    let ids = try Self.seedCrates(url, labelled: true)
    let context = ModelContext(try Self.open(CrateV2.models, plan: CratePlan.self, at: url))
    let boxes = try context.fetch(
      FetchDescriptor<CrateV2.Box>(sortBy: [SortDescriptor(\.label)]))
    #expect(boxes.map(\.persistentModelID) == [ids[0], ids[1]])
    #expect(boxes[0].items.map(\.persistentModelID) == [ids[2]])
    #expect(boxes[0].first.isEmpty)
    #expect(boxes[1].first.map(\.persistentModelID) == [ids[2]])
    // Derived from the stored lists.
    #expect(boxes[0].items.first?.box?.persistentModelID == ids[0])
    #expect(
      try TestServer.query("SELECT count(*) FROM \"Item\" WHERE box IS NOT NULL", at: url) == ["1"])
    #expect(try TestServer.query("SELECT to_regclass('\"Special\"')::text", at: url) == [nil])
  }

  @Test(
    "an optional attribute made required without an initial value: a stored nil fails the stage, and nothing changes"
  )
  func requiredWithoutValue() throws {
    let url = try TestServer.freshURL()
    _ = try Self.seedCrates(url, labelled: false)
    let error = #expect(throws: MigrationError.self) {
      _ = try Self.open(CrateV2.models, plan: CratePlan.self, at: url)
    }
    #expect(error?.code == .notLightweight)
    #expect(error?.message.contains("lightweight stage 1.0.0 -> 2.0.0") == true)
    #expect(error?.message.contains("1 stored object has no value") == true)
    #expect(try TestServer.query("SELECT count(*) FROM \"Special\"", at: url) == ["1"])
    #expect(try TestServer.query("SELECT count(*) FROM \"Box.items\"", at: url) == ["2"])
    #expect(try Self.columns("Box", at: url) == ["_version", "first", "id", "label"])
  }
}

extension PostgreSQLStoreSuites.FetchedResidency.FetchedMigration {
  /// What the migrated shop holds, by names: each product's values, list and shelf.
  static func shopContents(_ context: ModelContext) throws -> [String] {
    let products = try context.fetch(
      FetchDescriptor<ShopV2.Product>(sortBy: [SortDescriptor(\.price)]))
    let shelves = try context.fetch(FetchDescriptor<ShopV2.Shelf>())
    return products.map {
      "\($0.title) \($0.price) \($0.stock) \($0.note ?? "-") \($0.shelf?.label ?? "-") "
        + $0.similar.map(\.title).joined(separator: ",")
    } + shelves.map { "\($0.label): " + $0.products.map { "\($0.price)" }.joined(separator: ",") }
  }

  @Test("the same plan migrated in the database and in memory gives the same objects")
  func sameAsInMemory() throws {
    let inDatabase = try TestServer.freshURL()
    let inMemory = try TestServer.freshURL()
    _ = try Self.seedVersion1(inDatabase)
    _ = try Self.seedVersion1(inMemory)
    let fetched = ModelContext(try Self.open(ShopV2.models, plan: ShopPlan.self, at: inDatabase))
    let all = ModelContext(
      try ModelContainer(
        for: ShopV2.models, migrationPlan: ShopPlan.self,
        configurations: [ModelConfiguration(url: inMemory)]))
    let expected = try Self.shopContents(all)
    #expect(expected.count == 4)
    #expect(try Self.shopContents(fetched) == expected)
  }
}

extension PostgreSQLStoreSuites.FetchedResidency.FetchedMigration {
  @Test("an added to-one whose stored inverse lists an object twice fails the stage, as in memory")
  func ambiguousDerivedToOne() throws {
    let url = try TestServer.freshURL()
    _ = try Self.seedCrates(url, labelled: true, shared: true)
    let error = #expect(throws: MigrationError.self) {
      _ = try Self.open(CrateV2.models, plan: CratePlan.self, at: url)
    }
    #expect(error?.code == .invalidData)
    #expect(error?.message.contains("is referenced by more than one Box") == true)
    #expect(try TestServer.query("SELECT count(*) FROM \"Special\"", at: url) == ["1"])
    #expect(try Self.columns("Item", at: url) == ["_version", "id", "name"])
    // In memory the same plan fails the same way.
    let inMemory = try TestServer.freshURL()
    _ = try Self.seedCrates(inMemory, labelled: true, shared: true)
    let same = #expect(throws: MigrationError.self) {
      _ = try ModelContainer(
        for: CrateV2.models, migrationPlan: CratePlan.self,
        configurations: [ModelConfiguration(url: inMemory)])
    }
    #expect(same?.code == .invalidData)
  }
}

extension PostgreSQLStoreSuites.FetchedResidency.FetchedMigration {
  /// An animal and a dog named `dog`.
  static func seedZoo(_ url: URL, dog: String) throws {
    let context = ModelContext(
      try ModelContainer(for: ZooV1.models, configurations: [ModelConfiguration(url: url)]))
    let cat = ZooV1.Animal()
    cat.name = "Tom"
    let rex = ZooV1.Dog()
    rex.name = dog
    rex.breed = "collie"
    context.insert(cat)
    context.insert(rex)
    try context.save()
  }

  @Test(
    "an inherited attribute renamed and made unique: every table of the hierarchy is altered, and a value held in two tables fails the stage"
  )
  func hierarchy() throws {
    let url = try TestServer.freshURL()
    try Self.seedZoo(url, dog: "Rex")
    let context = ModelContext(try Self.open(ZooV2.models, plan: ZooPlan.self, at: url))
    let animals = try context.fetch(
      FetchDescriptor<ZooV2.Animal>(sortBy: [SortDescriptor(\.label)]))
    #expect(animals.map(\.label) == ["Rex", "Tom"])
    #expect((animals[0] as? ZooV2.Dog)?.breed == "collie")
    #expect(try Self.columns("Dog", at: url) == ["_version", "breed", "id", "label"])
    // The unique rule holds across the tables, at the next save.
    let copy = ZooV2.Dog()
    copy.label = "Tom"
    context.insert(copy)
    #expect(throws: ModelError.self) { try context.save() }

    let twice = try TestServer.freshURL()
    try Self.seedZoo(twice, dog: "Tom")
    let error = #expect(throws: MigrationError.self) {
      _ = try Self.open(ZooV2.models, plan: ZooPlan.self, at: twice)
    }
    #expect(error?.code == .invalidData)
    #expect(error?.message.contains("value Tom is stored more than once") == true)
    #expect(try Self.columns("Dog", at: twice) == ["_version", "breed", "id", "name"])
  }
}
