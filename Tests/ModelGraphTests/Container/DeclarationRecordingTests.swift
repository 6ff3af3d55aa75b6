import Dispatch
import Foundation
import ModelGraph
import Testing

class DRBand: PersistentModel {
  @Attribute(.unique, originalName: "title") var name: String
  @Attribute(.preserveValueOnDeletion) var founded: Int
  @Attribute var formed: Date
  @Relationship(
    deleteRule: .cascade, minimumModelCount: 1, maximumModelCount: 5, originalName: "members",
    inverse: \DRMusician.band)
  var musicians: [DRMusician]
}

class DRMusician: PersistentModel {
  @Attribute var name: String
  @Relationship(deleteRule: .deny) var band: DRBand?
}

class DRCrowdA: PersistentModel {
  @Attribute(.unique) var code: Int
}

class DRCrowdB: PersistentModel {
  @Attribute(originalName: "label") var name: String
  @Relationship(deleteRule: .cascade) var next: DRCrowdB?
}

/// `@Attribute` and `@Relationship` arguments are kept once per class, not in every object's
/// wrappers, and the schema still reports every one of them.
@Suite("Declarations kept once per class")
struct DeclarationRecordingTests {
  @Test("wrappers of fixed-size values hold no reference-counted field")
  func wrappersAreTrivial() {
    #expect(_isPOD(Attribute<Int>.self))
    #expect(_isPOD(Attribute<Date>.self))
    #expect(_isPOD(Attribute<UUID?>.self))
    #expect(_isPOD(Relationship<[DRMusician]>.self))
    #expect(_isPOD(Relationship<DRBand?>.self))
  }

  @Test("objects made before the schema is read leave every declared argument to the schema")
  func objectsBeforeSchema() throws {
    // Objects made and dropped before any container reads the classes.
    for index in 0..<3 {
      let band = DRBand()
      band.name = "band \(index)"
      _ = DRMusician()
    }
    let container = try makeInMemoryContainer(DRBand.self)
    let catalog = container.store.catalog
    let band = try #require(catalog.entity(named: "DRBand"))
    #expect(band.attributes.map(\.name) == ["name", "founded", "formed"])
    #expect(band.attributes.map(\.isUnique) == [true, false, false])
    #expect(band.attributes.map(\.preservesValueOnDeletion) == [false, true, false])
    #expect(band.attributes.map(\.originalName) == ["title", nil, nil])
    let musicians = try #require(band.relationships.first)
    #expect(musicians.deleteRule == .cascade)
    #expect(musicians.minimumModelCount == 1)
    #expect(musicians.maximumModelCount == 5)
    #expect(musicians.originalName == "members")
    #expect(musicians.inverse == "band")
    let musician = try #require(catalog.entity(named: "DRMusician"))
    let back = try #require(musician.relationships.first)
    #expect(back.deleteRule == .deny)
    #expect(back.originalName == nil)
  }

  @Test("objects made on other threads while a schema is read do not disturb it")
  func objectsMadeDuringSchemaReading() throws {
    let stop = StopFlag()
    let makers = DispatchGroup()
    for _ in 0..<2 {
      DispatchQueue.global().async(group: makers) {
        var made = 0
        while !stop.isSet || made < 1_000 {
          let crowd = DRCrowdA()
          crowd.code = made
          made += 1
        }
      }
    }
    let container = try makeInMemoryContainer(DRCrowdB.self, DRCrowdA.self)
    stop.set()
    makers.wait()
    let catalog = container.store.catalog
    let crowdB = try #require(catalog.entity(named: "DRCrowdB"))
    #expect(crowdB.attributes.map(\.originalName) == ["label"])
    #expect(crowdB.relationships.map(\.deleteRule) == [.cascade])
    let crowdA = try #require(catalog.entity(named: "DRCrowdA"))
    #expect(crowdA.attributes.map(\.isUnique) == [true])
    #expect(crowdA.attributes.map(\.originalName) == [nil])
  }
}

/// A flag one thread sets and others read.
private final class StopFlag: @unchecked Sendable {
  // @unchecked Sendable: `value` is read and written under `lock`.
  private let lock = NSLock()
  private var value = false

  var isSet: Bool { lock.withLock { value } }
  func set() { lock.withLock { value = true } }
}
