import Foundation
import ModelGraph
import Testing

/// A transformer type, as SwiftData code names one (Linux has no `ValueTransformer`).
final class AOColorTransformer {}

/// Every SwiftData attribute option, as SwiftData code writes them.
final class AOPhoto: PersistentModel {
  @Attribute(.unique, .externalStorage) var code: String
  @Attribute(.externalStorage) var image: Data
  @Attribute(.allowsCloudEncryption, originalName: "password", hashModifier: "v2") var secret:
    String
  @Attribute(.spotlight, hashModifier: "v2") var caption: String = ""
  @Attribute(.ephemeral) var isSelected = false
  @Attribute(.transformable(by: "ColorTransformer")) var color: String?
  @Attribute(.transformable(by: AOColorTransformer.self)) var tint: [String: Double] = [:]
  @Attribute(.codable, .preserveValueOnDeletion) var place: CAWeather?

  convenience init(_ code: String) {
    self.init()
    self.code = code
    image = Data([1, 2, 3])
    secret = "s3cret"
  }
}

@Suite("SwiftData attribute options")
struct AttributeOptionTests {
  @Test("options without an effect leave the schema as without them")
  func schema() throws {
    let container = try makeInMemoryContainer(AOPhoto.self)
    let entity = try #require(container.store.catalog.entity(named: "AOPhoto"))
    #expect(entity.attributes.map(\.isUnique) == [true] + Array(repeating: false, count: 7))
    #expect(
      entity.attributes.map(\.preservesValueOnDeletion) == Array(repeating: false, count: 7) + [
        true
      ])
    #expect(entity.attributes[1].valueType == .data)
    #expect(entity.attributes[2].originalName == "password")
    #expect(entity.attributes[6].valueType == .composite("Dictionary<String, Double>"))
  }

  @Test("values with every option are saved and survive a snapshot; .unique still applies")
  func roundTrip() throws {
    let scratch = try SnapshotScratch()
    do {
      let container = try ModelContainer(
        for: AOPhoto.self, configurations: ModelConfiguration(url: scratch.store))
      let context = ModelContext(container)
      let photo = AOPhoto("a")
      photo.caption = "beach"
      photo.isSelected = true
      photo.color = "red"
      photo.tint = ["alpha": 0.5]
      photo.place = sunny
      context.insert(photo)
      try context.save()
      context.insert(AOPhoto("a"))
      #expect(throws: ModelError.self) { try context.save() }
      context.rollback()
      try container.snapshot()
    }
    let container = try ModelContainer(
      for: AOPhoto.self, configurations: ModelConfiguration(url: scratch.store))
    let photos = try ModelContext(container).fetch(FetchDescriptor<AOPhoto>())
    #expect(photos.count == 1)
    let photo = try #require(photos.first)
    #expect(photo.image == Data([1, 2, 3]) && photo.secret == "s3cret" && photo.caption == "beach")
    // `.ephemeral` has no effect: the value is persisted.
    #expect(photo.isSelected)
    #expect(photo.color == "red" && photo.tint == ["alpha": 0.5] && photo.place == sunny)
  }

  @Test("options compare by kind and transformer")
  func equality() {
    #expect(AttributeOption.externalStorage != .spotlight)
    #expect(AttributeOption.transformable(by: "A") == .transformable(by: "A"))
    #expect(AttributeOption.transformable(by: "A") != .transformable(by: "B"))
    #expect(Attribute<Int>.Option.unique == .unique)
  }
}
