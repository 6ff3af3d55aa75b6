import Foundation
import ModelGraph
import Testing

/// `==`, `!=` and `contains` on `Codable` attributes, against Swift's `==` on the values the
/// objects read: the engine's byte comparison where it is exact, Foundation's elsewhere.
@Suite("Equality on Codable attributes matches Swift's ==")
struct CodableEqualityTests {
  /// 150 saved items and 30 unsaved ones, with seeded random values.
  private func makeContext(seed: UInt64) throws -> (ModelContext, CEGenerator) {
    let context = try makeInMemoryContext(CEItem.self)
    var generator = CEGenerator(random: SplitMix64(seed: seed))
    for index in 0..<180 {
      if index == 150 { try context.save() }
      let item = CEItem(index: index)
      generator.values().apply(to: item)
      context.insert(item)
    }
    return (context, generator)
  }

  /// The indexes the engine returns for `predicate`, and those Swift's `==` selects over the
  /// values every item reads.
  private func compare(
    _ context: ModelContext, _ predicate: Predicate<CEItem>, _ swift: (CEItem) -> Bool
  ) throws -> (engine: [Int], swift: [Int]) {
    let descriptor = FetchDescriptor(predicate: predicate, sortBy: [SortDescriptor(\.index)])
    let engine = try context.fetch(descriptor).map(\.index)
    let all = try context.fetch(FetchDescriptor<CEItem>(sortBy: [SortDescriptor(\.index)]))
    return (engine, all.filter(swift).map(\.index))
  }

  private func usesEngine(_ context: ModelContext, _ predicate: Predicate<CEItem>) throws -> Bool {
    !(try context.explain(FetchDescriptor(predicate: predicate))).contains("fallback")
  }

  @Test(
    "dictionaries of strings, integers and UUIDs: evaluated by the engine, as Swift's ==")
  func provableDictionaries() throws {
    for seed: UInt64 in [1, 2, 3] {
      var (context, generator) = try makeContext(seed: seed)
      for _ in 0..<25 {
        let query = generator.values()
        let labels = query.labels
        let counts = query.counts
        let nested = query.nested
        let byNumber = query.byNumber
        let sparse = query.sparse
        let identifiers = query.identifiers
        let checks: [(Predicate<CEItem>, (CEItem) -> Bool)] = [
          (#Predicate { $0.labels == labels }, { $0.labels == labels }),
          (#Predicate { $0.labels != labels }, { $0.labels != labels }),
          (#Predicate { $0.counts == counts }, { $0.counts == counts }),
          (#Predicate { $0.counts != counts }, { $0.counts != counts }),
          (#Predicate { $0.nested == nested }, { $0.nested == nested }),
          (#Predicate { $0.byNumber == byNumber }, { $0.byNumber == byNumber }),
          (#Predicate { $0.sparse == sparse }, { $0.sparse == sparse }),
          (#Predicate { $0.identifiers == identifiers }, { $0.identifiers == identifiers }),
        ]
        for (predicate, swift) in checks {
          let result = try compare(context, predicate, swift)
          #expect(result.engine == result.swift, "seed \(seed)")
          #expect(try usesEngine(context, predicate))
        }
      }
    }
  }

  @Test(
    "a captured list's contains, and nil, on a dictionary attribute run in the engine")
  func containsAndNil() throws {
    var (context, generator) = try makeContext(seed: 9)
    for _ in 0..<20 {
      let labelList = (0..<3).map { _ in generator.values().labels }
      let countList: [[String: Int]?] = (0..<3).map { _ in generator.values().counts }
      let byLabels = #Predicate<CEItem> { labelList.contains($0.labels) }
      let byCounts = #Predicate<CEItem> { countList.contains($0.counts) }
      let labels = try compare(context, byLabels) { labelList.contains($0.labels) }
      #expect(labels.engine == labels.swift)
      let counts = try compare(context, byCounts) { countList.contains($0.counts) }
      #expect(counts.engine == counts.swift)
      #expect(try usesEngine(context, byLabels))
      let plan = try context.explain(FetchDescriptor(predicate: byCounts))
      #expect(!plan.contains("fallback"), "\(plan)")
    }
    let none = #Predicate<CEItem> { $0.counts == nil }
    let result = try compare(context, none) { $0.counts == nil }
    #expect(result.engine == result.swift)
    #expect(!result.engine.isEmpty)
    #expect(try usesEngine(context, none))
  }

  @Test("equal values written with composed and decomposed letters match one another")
  func canonicalEquivalence() throws {
    let context = try makeInMemoryContext(CEItem.self)
    let item = CEItem(index: 0)
    item.labels = ["e\u{301}": "\u{212A}elvin"]
    context.insert(item)
    try context.save()
    let query = ["\u{E9}": "Kelvin"]
    #expect(query == item.labels)
    let found = try context.fetch(
      FetchDescriptor(predicate: #Predicate<CEItem> { $0.labels == query }))
    #expect(found.map(\.index) == [0])
  }

  @Test(
    "-0.0, NaN, nested optionals and custom == stay with Foundation, and match Swift")
  func unprovableTypes() throws {
    for seed: UInt64 in [4, 5] {
      var (context, generator) = try makeContext(seed: seed)
      for _ in 0..<15 {
        let query = generator.values()
        let readings = query.readings
        let layers = query.layers
        let nickname = query.nickname
        let point = query.point
        let checks: [(Predicate<CEItem>, (CEItem) -> Bool)] = [
          (#Predicate { $0.readings == readings }, { $0.readings == readings }),
          (#Predicate { $0.layers == layers }, { $0.layers == layers }),
          (#Predicate { $0.nickname == nickname }, { $0.nickname == nickname }),
          (#Predicate { $0.nickname != nickname }, { $0.nickname != nickname }),
          (#Predicate { $0.point == point }, { $0.point == point }),
        ]
        for (predicate, swift) in checks {
          let result = try compare(context, predicate, swift)
          #expect(result.engine == result.swift, "seed \(seed)")
          #expect(!(try usesEngine(context, predicate)))
        }
      }
    }
  }

  @Test("-0.0 and 0.0 are equal in a dictionary, NaN is equal to nothing")
  func floatingPointEdges() throws {
    let context = try makeInMemoryContext(CEItem.self)
    for (index, value) in [0.0, -0.0, .nan].enumerated() {
      let item = CEItem(index: index)
      item.readings = ["t": value]
      context.insert(item)
    }
    try context.save()
    let zero = ["t": 0.0]
    let nan = ["t": Double.nan]
    let zeros = try context.fetch(
      FetchDescriptor(
        predicate: #Predicate<CEItem> { $0.readings == zero }, sortBy: [SortDescriptor(\.index)]))
    #expect(zeros.map(\.index) == [0, 1])
    let nans = #Predicate<CEItem> { $0.readings == nan }
    #expect(try context.fetch(FetchDescriptor(predicate: nans)).isEmpty)
    let stored = try ModelContext(context.container).fetch(
      FetchDescriptor<CEItem>(sortBy: [SortDescriptor(\.index)]))
    #expect(stored[2].readings["t"]?.isNaN == true)
    #expect(stored[1].readings["t"]?.sign == .minus)
  }

  @Test("structs and enums declared MemberwiseEquatable compare in the engine, as Swift's ==")
  func memberwiseTypes() throws {
    let context = try makeInMemoryContext(CEPerson.self)
    var random = SplitMix64(seed: 11)
    let streets = ["Rua Augusta", "Rua Augusta", "e\u{301}cole", "\u{E9}cole"]
    func address() -> CEAddress {
      CEAddress(
        street: streets.randomElement(using: &random)!, zip: Int.random(in: 1...2, using: &random),
        tags: Bool.random(using: &random) ? [:] : ["lift": Bool.random(using: &random)],
        unit: Bool.random(using: &random) ? nil : "2B")
    }
    func contact() -> CEContact? {
      switch Int.random(in: 0..<4, using: &random) {
      case 0: nil
      case 1: CEContact.none
      case 2: .email(["a@b", "c@d"].randomElement(using: &random)!)
      default: .phone(country: Int.random(in: 1...2, using: &random), number: "1")
      }
    }
    for index in 0..<120 {
      let measured = CEMeasured(label: "m", value: [0.0, -0.0, 1].randomElement(using: &random)!)
      context.insert(
        CEPerson(index: index, address: address(), measured: measured, contact: contact()))
    }
    try context.save()
    let all = try context.fetch(FetchDescriptor<CEPerson>(sortBy: [SortDescriptor(\.index)]))
    for _ in 0..<20 {
      let wantedAddress = address()
      let wantedContact = contact()
      let wantedMeasured = CEMeasured(label: "m", value: 0.0)
      let byAddress = #Predicate<CEPerson> { $0.address == wantedAddress }
      let byContact = #Predicate<CEPerson> { $0.contact == wantedContact }
      let byMeasured = #Predicate<CEPerson> { $0.measured == wantedMeasured }
      for (predicate, swift, engine) in [
        (byAddress, { (person: CEPerson) in person.address == wantedAddress }, true),
        (byContact, { (person: CEPerson) in person.contact == wantedContact }, true),
        (byMeasured, { (person: CEPerson) in person.measured == wantedMeasured }, false),
      ] {
        let descriptor = FetchDescriptor(predicate: predicate, sortBy: [SortDescriptor(\.index)])
        #expect(try context.fetch(descriptor).map(\.index) == all.filter(swift).map(\.index))
        let plan = try context.explain(descriptor)
        #expect(plan.contains("fallback") != engine, "\(plan)")
      }
    }
  }
}
