import Foundation
import ModelGraph
import Testing

@testable import ModelGraphPostgreSQL

/// A class whose `Int8` attribute the database keeps in a `bigint` column.
private final class PGGauge: PersistentModel {
  @Attribute var name: String
  @Attribute var small: Int8
}

extension PostgreSQLStoreSuites {
  /// A narrow integer attribute on PostgreSQL: the database's schema record keeps its width,
  /// and a value another client wrote out of the declared type into the wider column is
  /// refused when it is read, naming it, instead of stopping the process that reads it.
  @Suite("Narrow integer columns") struct NarrowIntegers {
    @Test("the width survives a reopen; a row written out of range refuses the load, naming it")
    func outOfRangeRow() throws {
      let url = try TestServer.freshURL()
      do {
        let context = ModelContext(try TestServer.container([PGGauge.self], at: url))
        let gauge = PGGauge()
        gauge.name = "g"
        gauge.small = 7
        context.insert(gauge)
        try context.save()
      }
      do {
        let container = try TestServer.container([PGGauge.self], at: url)
        #expect(container.automaticMigration.isEmpty)
        #expect(try ModelContext(container).fetch(FetchDescriptor<PGGauge>()).map(\.small) == [7])
      }
      _ = try TestServer.query("UPDATE \"PGGauge\" SET small = 300 RETURNING id", at: url)
      #expect {
        // Reads no attribute: without the check, reading `small` would stop the process.
        let context = ModelContext(try TestServer.container([PGGauge.self], at: url))
        try context.validateStoredValues()
        _ = try context.fetch(FetchDescriptor<PGGauge>()).count
      } throws: { error in
        "\(error)".contains("PGGauge.small of row 0: 300 is out of the range of Int8 (-128...127)")
      }
    }
  }
}
