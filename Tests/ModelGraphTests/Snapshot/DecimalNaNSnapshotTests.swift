import Foundation
import ModelGraph
import Testing

/// A price whose amount can be a `Decimal` NaN.
private final class NaNPrice: PersistentModel {
  @Attribute var serial: Int
  @Attribute var amount: Decimal
  @Attribute var spare: Decimal?
}

/// A `Decimal` NaN a typed process saves: the file wrote it as `NaN`, which the reader refused
/// ("'NaN' is not a decimal number"), so the saved store could not be opened again.
@Suite("Decimal NaN in files")
struct DecimalNaNSnapshotTests {
  @Test(
    "a saved Decimal NaN reopens, from a snapshot and from the journal", arguments: [true, false])
  func reopens(snapshot: Bool) throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
      "modelgraph-decimal-nan-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let url = directory.appendingPathComponent("prices.mgs")
    do {
      let container = try ModelContainer(
        for: NaNPrice.self, configurations: ModelConfiguration(url: url))
      let context = ModelContext(container)
      for serial in 0..<3 {
        let price = NaNPrice()
        price.serial = serial
        price.amount = serial == 1 ? .nan : Decimal(serial)
        price.spare = serial == 2 ? .nan : nil
        context.insert(price)
      }
      try context.save()
      if snapshot { try container.snapshot() }
    }
    let container = try ModelContainer(
      for: NaNPrice.self, configurations: ModelConfiguration(url: url))
    let prices = try ModelContext(container).fetch(
      FetchDescriptor<NaNPrice>(sortBy: [SortDescriptor(\.serial)]))
    #expect(prices.map(\.amount.isNaN) == [false, true, false])
    #expect(prices.map { $0.spare?.isNaN } == [nil, nil, true])
    #expect(prices[2].amount == 2)
  }
}
