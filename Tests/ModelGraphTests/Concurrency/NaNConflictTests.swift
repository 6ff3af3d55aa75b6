import Foundation
import ModelGraph
import Testing

class NaNReading: PersistentModel {
  @Attribute var label: String
  @Attribute var value: Double

  convenience init(label: String, value: Double) {
    self.init()
    self.label = label
    self.value = value
  }
}

@Suite("Conflicts over NaN values") struct NaNConflictTests {
  @Test(
    "deleting an object holding NaN conflicts with nothing when another context changed its neighbour"
  )
  func deleteBesideChange() throws {
    let container = try makeInMemoryContainer(NaNReading.self)
    let setup = ModelContext(container)
    setup.insert(NaNReading(label: "a", value: .nan))
    setup.insert(NaNReading(label: "b", value: 1))
    try setup.save()
    func reading(_ context: ModelContext, _ label: String) throws -> NaNReading {
      try #require(
        try context.fetch(FetchDescriptor<NaNReading>(predicate: #Predicate { $0.label == label }))
          .first)
    }
    let deleter = ModelContext(container)
    let changer = ModelContext(container)
    deleter.delete(try reading(deleter, "a"))
    // Written in the same chunk of the table: the saved version copies it.
    try reading(changer, "b").value = 2
    try changer.save()
    try deleter.save()
    let after = ModelContext(container)
    #expect(try after.fetch(FetchDescriptor<NaNReading>()).map(\.label) == ["b"])
  }
}
