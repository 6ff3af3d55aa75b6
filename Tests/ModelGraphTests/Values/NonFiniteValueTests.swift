import Foundation
import ModelGraph
import Testing

struct NFReading: CompositeValue, Equatable {
  var label: String
  var value: Double
}

struct NFPlain: Codable, Equatable {
  var value: Float
}

final class NFSensor: PersistentModel {
  @Attribute var reading: NFReading
  @Attribute var plain: NFPlain
  @Attribute var series: [String: Double] = [:]
}

/// JSON has no NaN or infinity; a `Codable` value holding one is stored all the same (it
/// trapped in the encoder before).
@Suite("Codable values holding NaN and infinities")
struct NonFiniteValueTests {
  @Test("NaN and infinities in composite, Codable and dictionary values save and read back")
  func nonFiniteValuesRoundTrip() throws {
    let context = try makeInMemoryContext(NFSensor.self)
    let sensor = NFSensor()
    sensor.reading = NFReading(label: "t", value: .nan)
    sensor.plain = NFPlain(value: -.infinity)
    sensor.series = ["up": .infinity, "odd": .nan]
    context.insert(sensor)
    try context.save()
    let read = try #require(
      try ModelContext(context.container).fetch(FetchDescriptor<NFSensor>()).first)
    #expect(read.reading.value.isNaN)
    #expect(read.reading.label == "t")
    #expect(read.plain.value == -.infinity)
    #expect(read.series["up"] == .infinity)
    #expect(read.series["odd"]?.isNaN == true)
  }
}
