import Foundation
import ModelGraph
import Testing

@testable import ModelGraphPostgreSQL

extension PostgreSQLStoreSuites.FetchedResidency.FetchedMigration {
  @Test(
    "a container open while another process migrates the database is told the schema changed, on its next save and fetch, and writes nothing"
  )
  func otherContainerAfterMigration() throws {
    for fetched in [false, true] {
      let url = try TestServer.freshURL()
      _ = try Self.seedVersion1(url)
      let container =
        fetched
        ? try Self.open(ShopV1.models, plan: nil, at: url)
        : try TestServer.container(ShopV1.models, at: url)
      let context = ModelContext(container)
      let product = try #require(
        try context.fetch(FetchDescriptor<ShopV1.Product>(sortBy: [SortDescriptor(\.price)]))
          .first)
      product.price = 31
      try context.save()
      // Another process migrates the database: in it (keeping only fetched objects), or by
      // rewriting every object.
      if fetched {
        _ = try ModelContainer(
          for: ShopV2.models, migrationPlan: ShopPlan.self,
          configurations: [ModelConfiguration(url: url)])
      } else {
        _ = try Self.open(ShopV2.models, plan: ShopPlan.self, at: url)
      }
      let before = try TestServer.query("SELECT version FROM mg_state", at: url)
      product.price = 32
      let saving = #expect(throws: PostgreSQLError.self) { try context.save() }
      #expect(saving?.code == .schemaChanged)
      #expect(saving?.message.contains("open it again") == true)
      #expect(try TestServer.query("SELECT version FROM mg_state", at: url) == before)
      #expect(
        try TestServer.query("SELECT price::text FROM \"Product\" ORDER BY price", at: url)
          .first == "31")
      context.rollback()
      if fetched {
        let fetching = #expect(throws: PostgreSQLError.self) {
          _ = try context.fetch(FetchDescriptor<ShopV1.Shelf>())
        }
        #expect(fetching?.code == .schemaChanged)
      }
    }
  }

  @Test("rows a migration in the database changes get its version; other tables keep theirs")
  func migratedRowsGetTheVersion() throws {
    let url = try TestServer.freshURL()
    _ = try Self.seedVersion1(url)
    let before = try TestServer.query("SELECT DISTINCT _version::text FROM \"Shelf\"", at: url)
    _ = try Self.open(ShopV2.models, plan: ShopPlan.self, at: url)
    let version = try TestServer.query("SELECT version::text FROM mg_state", at: url)
    #expect(
      try TestServer.query("SELECT DISTINCT _version::text FROM \"Product\"", at: url) == version)
    #expect(
      try TestServer.query("SELECT DISTINCT _version::text FROM \"Shelf\"", at: url) == version)
    #expect(before != version)
    // A lightweight stage that changes only the shelf keeps the products' versions.
    let products = try TestServer.query(
      "SELECT _version::text FROM \"Product\" ORDER BY id", at: url)
    _ = try Self.open(ShopV2Aisle.models, plan: ShopAislePlan.self, at: url)
    #expect(
      try TestServer.query("SELECT _version::text FROM \"Product\" ORDER BY id", at: url)
        == products)
  }
}
