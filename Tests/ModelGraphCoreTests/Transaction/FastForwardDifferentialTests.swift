import Testing

@testable import ModelGraphCore

/// Two sessions save in turn, over and over, on seeded random changes: the second one's rebase
/// brings the first one's save in place (``Session/fastForward(onto:)``) where it can. The same
/// runs with the fast path turned off replay instead; both must publish the same graph and meet
/// the same conflicts.
@Suite("Rebase in place: agrees with the replay")
struct FastForwardDifferentialTests {
  private typealias Fixture = GraphFixture
  private static let name = 0
  private static let badge = 1
  private static let employeeDepartment = 0
  private static let roomDepartment = 0
  private static let employees = 0
  private static let rooms = 1

  /// What a run published and met: the graph's contents in names, and per round whether the
  /// second save was refused.
  private struct Outcome: Equatable {
    var contents: [String]
    var refusals: [Bool]
  }

  /// Live objects of `entity` (and its subclasses) in `session`'s view, sorted by label: the
  /// name, or for a room its number.
  private static func objects(_ entity: Int, in session: Session) -> [(ObjectKey, String)] {
    var found: [(ObjectKey, String)] = []
    for member in session.catalog.subtree(of: entity) {
      let table = session.table(member)
      table.forEachLiveRow { row in
        let key = ObjectKey(entity: member, row: row, generation: table.generation(of: row))
        found.append((key, label(of: key, in: session)))
      }
    }
    return found.sorted { $0.1 < $1.1 }
  }

  private static func label(of key: ObjectKey, in session: Session) -> String {
    Int(key.entity) == Fixture.room
      ? "r\(session.get(Int64.self, slot: 0, of: key))"
      : session.get(String.self, slot: name, of: key)
  }

  /// Applies one to four seeded changes to `session`; new objects are named `prefix` and a
  /// counter. Objects are picked by name, so runs that place rows differently pick the same.
  private static func change(
    _ session: Session, _ random: inout QueryRandom, prefix: String, counter: inout Int
  ) {
    for _ in 0..<Int.random(in: 1...4, using: &random) {
      let departments = objects(Fixture.department, in: session)
      let people = objects(Fixture.employee, in: session)
      let rooms = objects(Fixture.room, in: session)
      let department = departments[Int.random(in: 0..<departments.count, using: &random)].0
      counter += 1
      switch Int.random(in: 0..<7, using: &random) {
      case 0:
        let key = session.insertEmployee(
          "\(prefix)e\(counter)", badge: Int64(counter),
          entity: Bool.random(using: &random) ? Fixture.employee : Fixture.manager)
        session.setRelationship(of: key, slot: employeeDepartment, to: [department])
      case 1:
        let key = session.insert(entity: Fixture.room)
        session.set(Int64(counter), slot: 0, of: key)
        session.setRelationship(of: key, slot: roomDepartment, to: [department])
      case 2 where !people.isEmpty:
        let person = people[Int.random(in: 0..<people.count, using: &random)].0
        session.set(Int64(counter) as Int64?, slot: badge, of: person)
      case 3 where !people.isEmpty:
        let person = people[Int.random(in: 0..<people.count, using: &random)].0
        session.setRelationship(of: person, slot: employeeDepartment, to: [department])
      case 4 where !people.isEmpty:
        let person = people[Int.random(in: 0..<people.count, using: &random)].0
        _ = session.deleteApplyingRules(person)
      case 5 where !rooms.isEmpty:
        let room = rooms[Int.random(in: 0..<rooms.count, using: &random)].0
        _ = session.deleteApplyingRules(room)
      default:
        let person = session.insertEmployee("\(prefix)e\(counter)", badge: nil)
        _ = session.deleteApplyingRules(person)
      }
    }
  }

  /// The graph `session` sees, in names: each object with its values and related names.
  private static func contents(of session: Session) -> [String] {
    var lines: [String] = []
    func names(_ keys: [ObjectKey]) -> String {
      keys.map { label(of: $0, in: session) }.sorted().joined(separator: ",")
    }
    for (key, label) in objects(Fixture.department, in: session) {
      lines.append(
        "D \(label) [\(names(session.relatedKeys(of: key, slot: employees)))]"
          + " [\(names(session.relatedKeys(of: key, slot: rooms)))]")
    }
    for (key, label) in objects(Fixture.employee, in: session) {
      let badge = session.get(Int64?.self, slot: badge, of: key)
      lines.append(
        "E\(key.entity) \(label) \(badge.map(String.init) ?? "-")"
          + " \(names(session.relatedKeys(of: key, slot: employeeDepartment)))")
    }
    for (key, label) in objects(Fixture.room, in: session) {
      lines.append("R \(label) \(names(session.relatedKeys(of: key, slot: roomDepartment)))")
    }
    return lines
  }

  /// Each table's live count agrees with its stamps.
  private static func liveCountsAgree(_ session: Session) -> Bool {
    session.catalog.entities.indices.allSatisfy { entity in
      let table = session.table(entity)
      var live = 0
      table.forEachLiveRow { _ in live += 1 }
      return live == table.liveCount
    }
  }

  /// Runs the rounds; with `adopting`, the second session moves by taking over the rebase of
  /// a trial copy of itself (``Session/adopt(_:)``) before it saves, or by its own rebase when
  /// the copy's move told of graph edits. `fastForwards` counts adoptions then.
  private static func run(seed: UInt64, fast: Bool, adopting: Bool = false) throws -> (
    Outcome, fastForwards: Int
  ) {
    let setup = try Fixture.makeSession()
    let store = setup.store
    var departments: [ObjectKey] = []
    for index in 0..<4 { departments.append(setup.insertDepartment("d\(index)")) }
    for index in 0..<24 {
      let person = setup.insertEmployee("e\(index)", badge: Int64(index))
      setup.setRelationship(of: person, slot: employeeDepartment, to: [departments[index % 4]])
    }
    try setup.save()
    var random = QueryRandom(seed: seed)
    var counter = 0
    var refusals: [Bool] = []
    var fastForwards = 0
    for round in 0..<40 {
      let first = Session(store: store)
      let second = Session(store: store)
      second.allowsFastForward = fast
      change(first, &random, prefix: "a", counter: &counter)
      change(second, &random, prefix: "b", counter: &counter)
      try first.save()
      // Every third round a third session saves too: the second one's rebase spans two saves.
      if round % 3 == 2 {
        let third = Session(store: store)
        change(third, &random, prefix: "c", counter: &counter)
        try third.save()
      }
      do {
        if adopting {
          let trial = second.trialCopy()
          try trial.rebaseOntoLatest()
          if second.adopt(trial) {
            fastForwards += 1
            #expect(second.baseNumber == store.latestCommitted.number)
            #expect(contents(of: second) == contents(of: trial))
          } else {
            try second.rebaseOntoLatest()
          }
        }
        try second.save()
        refusals.append(false)
      } catch is ConflictError {
        refusals.append(true)
        second.rollback()
      }
      #expect(liveCountsAgree(second))
      if !adopting { fastForwards += second.fastForwardCount }
    }
    let reader = Session(store: store)
    #expect(liveCountsAgree(reader))
    let counts = reader.catalog.entities.indices.map { "count \($0) \(reader.table($0).liveCount)" }
    return (Outcome(contents: contents(of: reader) + counts, refusals: refusals), fastForwards)
  }

  @Test(
    "seeded rounds of two saves: in-place rebases publish what replays publish", arguments: 1...6)
  func agreesWithReplay(seed: UInt64) throws {
    let (fast, fastForwards) = try Self.run(seed: seed, fast: true)
    let (replayed, none) = try Self.run(seed: seed, fast: false)
    #expect(fast == replayed)
    #expect(none == 0)
    // Most rounds touch different objects: the fast path must have served some of them.
    #expect(fastForwards > 0)
    #expect(fast.refusals.contains(false))
  }

  @Test(
    "seeded rounds: taking over a trial copy's rebase publishes what one's own publishes",
    arguments: [true, false])
  func adoptedTrialAgrees(fast: Bool) throws {
    var adoptions = 0
    for seed: UInt64 in 1...6 {
      let (own, _) = try Self.run(seed: seed, fast: fast)
      let (adopted, count) = try Self.run(seed: seed, fast: fast, adopting: true)
      #expect(adopted == own, "seed \(seed)")
      adoptions += count
    }
    // Most moves edit nothing the context is told of: the copy's move must serve some.
    #expect(adoptions > 0)
  }

  @Test("a rebase onto a save that wrote a row this session also wrote replays instead")
  func overlapReplays() throws {
    let setup = try Fixture.makeSession()
    let department = setup.insertDepartment("d")
    let person = setup.insertEmployee("p", badge: 1)
    setup.setRelationship(of: person, slot: Self.employeeDepartment, to: [department])
    try setup.save()
    let first = Session(store: setup.store)
    let second = Session(store: setup.store)
    first.set("renamed", slot: Self.name, of: person)
    second.set(Int64(7) as Int64?, slot: Self.badge, of: person)
    try first.save()
    try second.save()
    #expect(second.fastForwardCount == 0)
    let reader = Session(store: setup.store)
    #expect(reader.get(String.self, slot: Self.name, of: person) == "renamed")
    #expect(reader.get(Int64?.self, slot: Self.badge, of: person) == 7)
  }

  @Test("a rebase onto a save of other rows takes it in place and publishes both")
  func disjointFastForwards() throws {
    let setup = try Fixture.makeSession()
    let department = setup.insertDepartment("d")
    let people = (0..<3).map { setup.insertEmployee("p\($0)", badge: Int64($0)) }
    for person in people {
      setup.setRelationship(of: person, slot: Self.employeeDepartment, to: [department])
    }
    try setup.save()
    let first = Session(store: setup.store)
    let second = Session(store: setup.store)
    first.set("renamed", slot: Self.name, of: people[0])
    _ = first.deleteApplyingRules(people[2])
    second.set(Int64(70) as Int64?, slot: Self.badge, of: people[1])
    let added = second.insertEmployee("new", badge: nil)
    try first.save()
    try second.save()
    #expect(second.fastForwardCount == 1)
    let reader = Session(store: setup.store)
    #expect(reader.get(String.self, slot: Self.name, of: people[0]) == "renamed")
    #expect(reader.get(Int64?.self, slot: Self.badge, of: people[1]) == 70)
    #expect(!reader.contains(people[2]))
    #expect(reader.contains(added))
    #expect(Self.liveCountsAgree(reader))
    #expect(reader.table(GraphFixture.employee).liveCount == 3)
  }

  @Test(
    "a rebase that takes whole chunks keeps every table's live count",
    arguments: [(inserts: 2, deletes: 0), (inserts: 0, deletes: 1), (inserts: 1, deletes: 1)])
  func chunkTakenWholeCountsRows(inserts: Int, deletes: Int) throws {
    let setup = try Fixture.makeSession()
    let people = (0..<3).map { setup.insertEmployee("p\($0)", badge: Int64($0)) }
    try setup.save()
    let first = Session(store: setup.store)
    let second = Session(store: setup.store)
    // The first save writes a row below the ones whose lives it creates or ends; the second
    // writes no stamp, so it takes the stamps chunk whole at the first row.
    first.set(Int64(10) as Int64?, slot: Self.badge, of: people[0])
    let added = (0..<inserts).map { first.insertEmployee("added\($0)", badge: nil) }
    for person in people.suffix(deletes) { _ = first.deleteApplyingRules(person) }
    second.set(Int64(11) as Int64?, slot: Self.badge, of: people[1])
    try first.save()
    try second.save()
    #expect(second.fastForwardCount == 1)
    let reader = Session(store: setup.store)
    #expect(Self.liveCountsAgree(reader))
    #expect(reader.table(GraphFixture.employee).liveCount == 3 + inserts - deletes)
    #expect(added.allSatisfy(reader.contains))
    #expect(people.suffix(deletes).allSatisfy { !reader.contains($0) })
    #expect(reader.get(Int64?.self, slot: Self.badge, of: people[0]) == 10)
    #expect(reader.get(Int64?.self, slot: Self.badge, of: people[1]) == 11)
  }

  @Test("a rebase across three saves of other rows takes them all in place")
  func severalSavesFastForward() throws {
    let setup = try Fixture.makeSession()
    let people = (0..<4).map { setup.insertEmployee("p\($0)", badge: Int64($0)) }
    try setup.save()
    let mine = Session(store: setup.store)
    mine.set(Int64(40) as Int64?, slot: Self.badge, of: people[3])
    var added: [ObjectKey] = []
    for index in 0..<3 {
      let other = Session(store: setup.store)
      other.set(Int64(10 + index) as Int64?, slot: Self.badge, of: people[index])
      added.append(other.insertEmployee("other\(index)", badge: nil))
      try other.save()
    }
    try mine.save()
    #expect(mine.fastForwardCount == 1)
    let reader = Session(store: setup.store)
    #expect(Self.liveCountsAgree(reader))
    #expect(reader.table(GraphFixture.employee).liveCount == 7)
    #expect(added.allSatisfy(reader.contains))
    for index in 0..<3 {
      #expect(reader.get(Int64?.self, slot: Self.badge, of: people[index]) == Int64(10 + index))
    }
    #expect(reader.get(Int64?.self, slot: Self.badge, of: people[3]) == 40)
  }

  @Test(
    "a rebase onto a save too large to note, of a table this session did not change, is in place")
  func unnotedUnchangedTableFastForwards() throws {
    let setup = try Fixture.makeSession()
    let person = setup.insertEmployee("p", badge: 1)
    try setup.save()
    let mine = Session(store: setup.store)
    mine.set(Int64(2) as Int64?, slot: Self.badge, of: person)
    let other = Session(store: setup.store)
    let departments = (0...TableChangeNote.largestNoted).map { other.insertDepartment("d\($0)") }
    try other.save()
    #expect(Session(store: setup.store).base.tables[GraphFixture.department].changeNote == nil)
    try mine.save()
    #expect(mine.fastForwardCount == 1)
    let reader = Session(store: setup.store)
    #expect(reader.get(Int64?.self, slot: Self.badge, of: person) == 2)
    #expect(reader.table(GraphFixture.department).liveCount == departments.count)
    #expect(departments.allSatisfy(reader.contains))
    #expect(Self.liveCountsAgree(reader))
  }

  @Test("notes reach back a bounded number of versions; rows since an older one are their union")
  func noteChain() {
    var note = TableChangeNote(previous: 1, rows: [5])
    for serial in 2...UInt64(12) {
      note = TableChangeNote(previous: serial, rows: [5, 100 + Int32(serial)], following: note)
    }
    #expect(note.rows(since: 12) == [5, 112])
    #expect(note.rows(since: 10) == [5, 110, 111, 112])
    #expect(note.earlier.count == TableChangeNote.longestChain)
    #expect(note.rows(since: 12 - UInt64(TableChangeNote.longestChain)) != nil)
    #expect(note.rows(since: 11 - UInt64(TableChangeNote.longestChain)) == nil)
    let large = TableChangeNote(
      previous: 20, rows: (0..<Int32(TableChangeNote.largestNoted)).map { $0 }, following: note)
    #expect(large.earlier.isEmpty)
    #expect(large.rows(since: 12) == nil)
  }

  @Test(
    "a reference to an object deleted since, through a relationship without an inverse, replays")
  func danglingReferenceReplays() throws {
    let store = Store()
    try store.register([
      EntityDescription(
        name: "Person", attributes: [AttributeDescription(name: "name", valueType: .string)],
        relationships: [
          RelationshipDescription(name: "favorites", destination: "Item", isToMany: true)
        ]),
      EntityDescription(
        name: "Item", attributes: [AttributeDescription(name: "name", valueType: .string)]),
    ])
    let (person, item) = (0, 1)
    let setup = Session(store: store)
    let owner = setup.insert(entity: person)
    setup.set("p", slot: 0, of: owner)
    let (q, r) = (setup.insert(entity: item), setup.insert(entity: item))
    setup.set("q", slot: 0, of: q)
    setup.set("r", slot: 0, of: r)
    setup.setRelationship(of: owner, slot: 0, to: [q])
    try setup.save()
    let mine = Session(store: store)
    mine.setRelationship(of: owner, slot: 0, to: [q, r])
    let other = Session(store: store)
    _ = other.deleteApplyingRules(q)
    try other.save()
    try mine.save()
    // The deletion wrote only the item's row, which this session did not write; the replay
    // drops the reference to it.
    #expect(mine.fastForwardCount == 0)
    #expect(Session(store: store).relatedKeys(of: owner, slot: 0) == [r])
  }
}
