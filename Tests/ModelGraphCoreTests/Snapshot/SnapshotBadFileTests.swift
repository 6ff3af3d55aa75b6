import Foundation
import Testing

@testable import ModelGraphCore

#if canImport(Glibc)
  import Glibc
#endif

@Suite("Damaged and hostile snapshot files")
struct SnapshotBadFileTests {
  let file: [UInt8]

  init() throws {
    file = try SnapshotFixture.bytes()
  }

  /// Decodes `bytes` and returns the error, recording an issue when there is none.
  private func failure(_ bytes: [UInt8], path: String = "bad.mgs") -> SnapshotError? {
    do {
      _ = try SnapshotReader.decode(bytes, path: path)
      return nil
    } catch let error as SnapshotError {
      return error
    } catch {
      Issue.record("not a SnapshotError: \(error)")
      return nil
    }
  }

  /// What is wrong with `error` as the error for a bad file of `size` bytes: it must exist
  /// and name the path, a section and a byte offset inside the file.
  private func problem(_ error: SnapshotError?, size: Int) -> String? {
    guard let error else { return "decoded without an error" }
    guard error.path == "bad.mgs", !error.section.isEmpty else { return "\(error)" }
    guard let offset = error.offset, offset >= 0, offset <= size else {
      return "no offset in the file: \(error)"
    }
    return nil
  }

  private func expectSpecific(_ error: SnapshotError?, size: Int, _ note: String) {
    if let problem = problem(error, size: size) { Issue.record("\(note): \(problem)") }
  }

  @Test("the intact file decodes, with identifiers, values and relationships")
  func intactFile() throws {
    let version = try SnapshotReader.decode(file, path: "good.mgs")
    #expect(SnapshotWriter.encode(version) == file)
    #expect(version.tables.map(\.liveCount) == [1, 1, 2])
  }

  /// The prefix lengths are split into stripes that run in parallel.
  @Test("every truncated prefix gives a specific error", arguments: 0..<8)
  func truncatedPrefixes(stripe: Int) {
    var problems: [String] = []
    for length in stride(from: stripe, to: file.count, by: 8) {
      let error = failure(Array(file[0..<length]))
      if let problem = problem(error, size: length) { problems.append("\(length): \(problem)") }
      if length >= 8, error?.code == .badMagic { problems.append("\(length): bad magic") }
    }
    #expect(problems.isEmpty, "\(problems.prefix(5))")
    #expect(file.count > 1000, "the file has every kind of block")
  }

  @Test("a file with bytes appended after the trailer is refused")
  func trailingBytes() {
    let error = failure(file + [0])
    expectSpecific(error, size: file.count + 1, "one extra byte")
  }

  @Test("seeded random bit flips (one, two and eight per file) give specific errors")
  func bitFlips() {
    var random = QueryRandom(seed: 6)
    var problems: [String] = []
    for flips in [1, 2, 8] {
      for _ in 0..<400 {
        var damaged = file
        for _ in 0..<flips {
          let index = Int.random(in: 0..<damaged.count, using: &random)
          damaged[index] ^= 1 << UInt8.random(in: 0..<8, using: &random)
        }
        guard damaged != file else { continue }
        if let problem = problem(failure(damaged), size: file.count) {
          problems.append("\(flips) flips: \(problem)")
        }
      }
    }
    #expect(problems.isEmpty, "\(problems.prefix(5))")
  }

  @Test("every single bit of the header, when flipped, is caught")
  func headerBits() {
    for bit in 0..<(28 * 8) {
      var damaged = file
      damaged[bit / 8] ^= 1 << UInt8(bit % 8)
      expectSpecific(failure(damaged), size: file.count, "header bit \(bit)")
    }
  }

  @Test("a wrong magic, a zero-length file and a short text file are told apart")
  func wrongMagicAndEmpty() throws {
    var magic = file
    magic[0] = UInt8(ascii: "X")
    let wrong = try #require(failure(magic))
    #expect(wrong.code == .badMagic && wrong.offset == 0 && wrong.section == "header")
    let empty = try #require(failure([]))
    #expect(empty.code == .truncated && empty.offset == 0)
    let text = try #require(failure(Array("hello, world\n".utf8)))
    #expect(text.code == .badMagic)
  }

  @Test("a version 1 file (no lineage block) still reads, as generation 0")
  func versionOneFile() throws {
    var forge = SnapshotForge(
      SnapshotWriter.encode(
        try SnapshotReader.decode(file, path: "good.mgs"),
        lineage: SnapshotLineage(generation: 7, previous: 3), formatVersion: 3))
    let lineage = try #require(forge.blocks.firstIndex { $0.kind == 4 })
    #expect(forge.blocks[lineage].payload.count == 16)
    forge.blocks.remove(at: lineage)
    forge.header[8] = 1
    var schema = ByteWriter()
    try SnapshotReader.decode(file, path: "good.mgs").catalog.encode(into: &schema, version: 1)
    forge.blocks[0].payload = schema.bytes
    let decoded = try SnapshotReader.decodeWithLineage(forge.assemble(), path: "v1.mgs")
    #expect(decoded.lineage == SnapshotLineage())
    #expect(SnapshotWriter.encode(decoded.version) == file)
    // A version 2 file without its lineage block is damaged.
    forge.header[8] = 2
    let missing = try #require(failure(forge.assemble()))
    #expect(missing.code == .malformed && missing.section == "lineage")
  }

  @Test("a future format version is refused as unsupported, naming the version")
  func futureVersion() throws {
    var forge = SnapshotForge(file)
    let future = UInt8(SnapshotFormat.version + 1)
    forge.header[8] = future
    let error = try #require(failure(forge.assemble()))
    #expect(error.code == .unsupportedVersion && error.offset == 8)
    #expect(error.message.contains("version \(future)"))
    forge.header[8] = 3
    forge.header[12] = 1
    let flags = try #require(failure(forge.assemble()))
    #expect(flags.code == .unsupportedVersion && flags.offset == 12)
  }

  /// A forged file with `change` applied, decoded: the error it must give.
  private func forged(from base: [UInt8]? = nil, _ change: (inout SnapshotForge) -> Void) throws
    -> SnapshotError
  {
    var forge = SnapshotForge(base ?? file)
    change(&forge)
    let bytes = forge.assemble()
    let error = try #require(failure(bytes))
    expectSpecific(error, size: bytes.count, "forged")
    return error
  }

  @Test("hostile counts and lengths are checked against the bytes that remain")
  func hostileCounts() throws {
    // Schema: 2^60 entities.
    let entities = try forged { $0.put(UInt64(1) << 60, block: 0, at: 0) }
    #expect(entities.code == .malformed && entities.section == "schema" && entities.offset == 40)
    // Schema: the first entity's name claims 4 GiB.
    let name = try forged { $0.put(UInt32.max, block: 0, at: 8) }
    #expect(name.code == .truncated && name.section == "schema")
    // A table of 2^40 rows.
    let rows = try forged { $0.put(UInt64(1) << 40, block: $0.table(entity: 0), at: 4) }
    #expect(rows.code == .malformed && rows.section == "table Trip")
    // A stamps column claiming UInt64.max rows.
    let stamps = try forged {
      $0.put(UInt64.max, block: $0.column(entity: 0, role: 0, slot: 0), at: 9)
    }
    #expect(stamps.code == .malformed && stamps.section == "table Trip column stamps")
    // A string column claiming more rows than bytes.
    let strings = try forged {
      $0.put(UInt64(1) << 32, block: $0.column(entity: 0, role: 1, slot: 0), at: 9)
    }
    #expect(strings.code == .malformed && strings.section == "table Trip column name")
    // An array value (tags of the first row) claiming 2^61 elements.
    let tags = try forged {
      let block = $0.column(entity: 0, role: 1, slot: 3)
      $0.put(UInt64(1) << 61, block: block, at: 17)
    }
    #expect(tags.code == .malformed && tags.section == "table Trip column tags")
    // A to-many relationship of the first row claiming 2^40 keys.
    let keys = try forged {
      $0.put(UInt64(1) << 40, block: $0.column(entity: 0, role: 2, slot: 0), at: 17)
    }
    #expect(keys.code == .malformed && keys.section == "table Trip column stays")
  }

  @Test("impossible values inside well-checksummed blocks give specific errors")
  func impossibleValues() throws {
    let live = try forged { $0.put(UInt64(0), block: $0.table(entity: 0), at: 12) }
    #expect(live.code == .malformed && live.message.contains("live rows"))
    let flag = try forged { forge in
      forge.blocks[forge.column(entity: 0, role: 1, slot: 4)].payload[17] = 7
    }
    #expect(flag.code == .malformed && flag.message.contains("not a Bool"))
    let order = try forged { $0.blocks.swapAt(2, 3) }
    #expect(order.code == .malformed)
    let tag = try forged { forge in
      forge.blocks[forge.column(entity: 0, role: 1, slot: 2)].payload[17] = 9
    }
    #expect(tag.code == .malformed && tag.section == "table Trip column note")
  }

  @Test("relationship keys must name a row of the destination's hierarchy")
  func danglingAndForeignKeys() throws {
    // Stay.trip of the first stay row in a version 3 file: an optional key (tag byte, entity,
    // row, generation). ColumnLayoutTests covers the keys of version 4.
    let v3 = SnapshotWriter.encode(
      try SnapshotReader.decode(file, path: "good.mgs"), formatVersion: 3)
    let stayTrip = { (forge: SnapshotForge) in forge.column(entity: 2, role: 2, slot: 0) }
    let beyond = try forged(from: v3) { forge in
      let block = stayTrip(forge)
      forge.blocks[block].payload[17] = 1
      forge.put(UInt32(0), block: block, at: 18)
      forge.put(UInt32(1_000_000), block: block, at: 22)
    }
    #expect(beyond.code == .malformed && beyond.section == "table Stay column trip")
    #expect(beyond.message.contains("not a Trip"))
    let foreign = try forged(from: v3) { forge in
      let block = stayTrip(forge)
      forge.blocks[block].payload[17] = 1
      forge.put(UInt32(2), block: block, at: 18)
      forge.put(UInt32(0), block: block, at: 22)
    }
    #expect(foreign.code == .malformed && foreign.message.contains("not a Trip"))
    let entity = try forged(from: v3) { forge in
      let block = stayTrip(forge)
      forge.blocks[block].payload[17] = 1
      forge.put(UInt32.max, block: block, at: 18)
    }
    #expect(entity.code == .malformed)
  }

  @Test("a hostile schema (unknown parent, bad type tag, deep array type) is refused")
  func hostileSchema() throws {
    let parent = try forged { forge in
      // The "Trip" that follows "BusinessTrip" is its parent's name: make it "Trap".
      var payload = forge.blocks[0].payload
      let start = payload.firstRange(of: Array("BusinessTrip".utf8))!.upperBound
      let at = payload[start...].firstRange(of: Array("Trip".utf8))!.lowerBound
      payload[at + 2] = UInt8(ascii: "a")
      forge.blocks[0].payload = payload
    }
    #expect(parent.code == .malformed && parent.section == "schema")
    #expect(parent.message.contains("schema is inconsistent"))
    let nested = try forged { forge in
      // The first attribute's type tag (after count, name "Trip", no parent, count, "name").
      var payload: [UInt8] = []
      SnapshotForge.append(UInt64(1), to: &payload)
      SnapshotForge.append(UInt32(1), to: &payload)
      payload += [UInt8(ascii: "T"), 0]
      SnapshotForge.append(UInt64(1), to: &payload)
      SnapshotForge.append(UInt32(1), to: &payload)
      payload += [UInt8(ascii: "a")] + Array(repeating: 11, count: 40) + [1, 0, 0]
      SnapshotForge.append(UInt64(0), to: &payload)
      forge.blocks[0].payload = payload
    }
    #expect(nested.code == .malformed && nested.message.contains("nest deeper"))
  }

  @Test("a directory at the path, a missing file and an unreadable file through SnapshotFile")
  func paths() throws {
    let disk = SimFS()
    disk.makeDirectory("/sim/dir.mgs")
    let directory = try #require(throws: SnapshotError.self) {
      _ = try SnapshotFile(path: "/sim/dir.mgs", io: disk).load()
    }
    #expect(directory.path == "/sim/dir.mgs" && directory.message.contains("directory"))
    #expect(try SnapshotFile(path: "/sim/none.mgs", io: disk).load() == nil)
    disk.place(file, at: "/sim/locked.mgs", readable: false)
    let unreadable = try #require(throws: SnapshotError.self) {
      _ = try SnapshotFile(path: "/sim/locked.mgs", io: disk).load()
    }
    #expect(unreadable.code == .io && unreadable.message.contains("errno \(EACCES)"))
  }

  @Test(
    "a real unreadable file gives EACCES (skipped as root, which bypasses permissions)",
    .enabled(if: geteuid() != 0, "root reads files whatever their permissions"))
  func realUnreadableFile() throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
      "modelgraph-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let path = directory.appendingPathComponent("store.mgs").path
    try Data(file).write(to: URL(fileURLWithPath: path))
    chmod(path, 0)
    let error = try #require(throws: SnapshotError.self) {
      _ = try SnapshotFile(path: path).load()
    }
    #expect(error.code == .io && error.section == "open" && error.path == path)
    #expect(error.message.contains("errno \(EACCES)"))
  }
}
