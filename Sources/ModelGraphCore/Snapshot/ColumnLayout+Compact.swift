/// The compact layouts of format version 6, for the columns that hold most of a file's bytes
/// in small numbers: `UInt32` columns (every table's row stamps) as varint differences, and
/// relationship keys as varint row differences (``CompactKeyCoding``); string lengths are
/// varints too (see ``encodeArena(_:count:isOptional:format:into:)``). Every row takes at least
/// one byte, so a row count is still bounded by the bytes that remain.
extension ColumnLayout {
  // MARK: UInt32 columns

  /// A mode byte, then for mode 0 the values as 4 little-endian bytes each, and for mode 1 a
  /// section of one varint a row: `zigzag(value - previous value)`, the first taken from 0.
  /// The writer picks the smaller.
  static func encodeWords(_ column: Column<UInt32>, into writer: inout ByteWriter) {
    var size = 0
    var previous: UInt32 = 0
    column.forEachChunk { _, values in
      for value in values {
        size &+= Varint.size(Varint.zigzag(Int64(value) &- Int64(previous)))
        previous = value
      }
    }
    guard size < column.count * 4 else {
      writer.append(UInt8(0))
      column.forEachChunk { _, values in writer.append(raw: UnsafeRawBufferPointer(values)) }
      return
    }
    writer.append(UInt8(1))
    writer.appendSection(size: size) { out in
      var offset = 0
      var previous: UInt32 = 0
      column.forEachChunk { _, values in
        for value in values {
          offset = Varint.store(
            Varint.zigzag(Int64(value) &- Int64(previous)), into: out, at: offset)
          previous = value
        }
      }
    }
  }

  /// Reads `count` rows written by ``encodeWords(_:into:)`` into `column` (new and empty).
  static func decodeWords(_ column: Column<UInt32>, count: Int, from reader: inout ByteReader)
    throws
  {
    let modeAt = reader.position
    switch try reader.read(UInt8.self) {
    case 0:
      let raw = try reader.readBytes(count * 4)
      column.load(count: count) { start, values, rows in
        UnsafeMutableRawPointer(values).copyMemory(
          from: raw.baseAddress! + start * 4, byteCount: rows * 4)
      }
    case 1:
      var (cursor, start) = try reader.readSection()
      var previous: Int64 = 0
      var damaged: (row: Int, at: Int)?
      column.load(count: count) { first, values, rows in
        var index = 0
        while index < rows {
          guard damaged == nil else {
            (values + index).initialize(to: 0)
            index += 1
            continue
          }
          let at = cursor.position
          // Eight one-byte differences at once, else one varint.
          let batch = rows &- index >= 8 ? cursor.nextEightSmall() : nil
          let codes = batch == nil ? 1 : 8
          for code in 0..<codes {
            var value: Int64 = -1
            if let batch {
              value = previous &+ Varint.unzigzag((batch >> UInt64(code &* 8)) & 0xFF)
            } else if let single = cursor.next() {
              value = previous &+ Varint.unzigzag(single)
            }
            guard damaged == nil, value >= 0, value <= Int64(UInt32.max) else {
              damaged = damaged ?? (first + index + code, batch == nil ? at : at + code)
              (values + index + code).initialize(to: 0)
              continue
            }
            previous = value
            (values + index + code).initialize(to: UInt32(truncatingIfNeeded: value))
          }
          index += codes
        }
      }
      if let damaged {
        throw reader.error(
          "row \(damaged.row)'s value is damaged or outside UInt32", at: start + damaged.at)
      }
      guard cursor.isAtEnd else {
        throw reader.error(
          "\(cursor.bytes.count - cursor.position) bytes follow the last row",
          at: start + cursor.position)
      }
    case let mode: throw reader.error("\(mode) is not a layout of UInt32 values", at: modeAt)
    }
  }

  // MARK: To-one keys

  /// The coding header, then a section of every row's key (``CompactKeyCoding``).
  static func encodeCompactKeys(_ column: Column<ObjectKey?>, into writer: inout ByteWriter) {
    var fitting = CompactKeyCoding.Fitting()
    column.forEachChunk { _, values in
      for value in values { fitting.add(value) }
    }
    let coding = fitting.coding
    coding.writeHeader(into: &writer)
    let size = fitting.sectionSize
    writer.appendSection(size: size) { out in
      var offset = 0
      var previous: UInt32 = 0
      column.forEachChunk { _, values in
        offset = coding.store(values, previous: &previous, into: out, at: offset)
      }
    }
  }

  /// Reads `count` rows written by ``encodeCompactKeys(_:into:)`` into `column` (new and empty).
  static func decodeCompactKeys(
    _ column: Column<ObjectKey?>, count: Int, from reader: inout ByteReader
  ) throws {
    let coding = try CompactKeyCoding(from: &reader)
    var (cursor, start) = try reader.readSection()
    var previous: UInt32 = 0
    var damaged: (row: Int, at: Int)?
    if coding.isRowOnly, let generation = coding.sharedGeneration {
      // The common case (one entity, one generation): each key is its row's varint alone.
      var key = ObjectKey.placeholder
      key.entity = coding.entity
      key.generation = generation
      column.load(count: count) { first, values, rows in
        var index = 0
        while index < rows {
          // Eight keys of one byte each at once.
          if damaged == nil, rows &- index >= 8, let batch = cursor.nextEightSmall() {
            let at = cursor.position &- 8
            for code in 0..<8 {
              let lead = (batch >> UInt64(code &* 8)) & 0xFF
              if lead == 0 {
                (values + index + code).initialize(to: nil)
              } else if damaged == nil,
                let row = CompactKeyCoding.row(lead: lead, previous: previous)
              {
                previous = row
                key.row = row
                (values + index + code).initialize(to: key)
              } else {
                damaged = damaged ?? (first + index + code, at + code)
                (values + index + code).initialize(to: nil)
              }
            }
            index += 8
            continue
          }
          let at = cursor.position
          defer { index += 1 }
          guard damaged == nil,
            let row = CompactKeyCoding.loadRow(from: &cursor, previous: &previous)
          else {
            damaged = damaged ?? (first + index, at)
            (values + index).initialize(to: nil)
            continue
          }
          if row < 0 {
            (values + index).initialize(to: nil)
          } else {
            key.row = UInt32(truncatingIfNeeded: row)
            (values + index).initialize(to: key)
          }
        }
      }
    } else if coding.entityWidth == 1, let generation = coding.sharedGeneration {
      // Keys of a few entities and one generation: each key is its row's varint and an
      // entity byte.
      var key = ObjectKey.placeholder
      key.generation = generation
      column.load(count: count) { first, values, rows in
        for index in 0..<rows {
          let at = cursor.position
          guard damaged == nil, let lead = cursor.next() else {
            damaged = damaged ?? (first + index, at)
            (values + index).initialize(to: nil)
            continue
          }
          guard lead != 0 else {
            (values + index).initialize(to: nil)
            continue
          }
          guard let row = CompactKeyCoding.row(lead: lead, previous: previous),
            let entity = cursor.next(UInt8.self)
          else {
            damaged = (first + index, at)
            (values + index).initialize(to: nil)
            continue
          }
          previous = row
          key.row = row
          key.entity = UInt32(entity)
          (values + index).initialize(to: key)
        }
      }
    } else {
      column.load(count: count) { first, values, rows in
        for index in 0..<rows {
          let at = cursor.position
          guard damaged == nil,
            case .some(let key) = coding.load(from: &cursor, previous: &previous)
          else {
            damaged = damaged ?? (first + index, at)
            (values + index).initialize(to: nil)
            continue
          }
          (values + index).initialize(to: key)
        }
      }
    }
    if let damaged {
      throw reader.error("row \(damaged.row) holds a damaged key", at: start + damaged.at)
    }
    guard cursor.isAtEnd else {
      throw reader.error(
        "\(cursor.bytes.count - cursor.position) bytes follow the last key",
        at: start + cursor.position)
    }
  }

  // MARK: To-many keys

  /// A section of each row's number of keys (a varint each), the total number of keys
  /// (8 bytes), the coding header, then a section of every key in row order
  /// (``CompactKeyCoding``; none is absent).
  static func encodeCompactKeyLists(_ column: KeyListColumn, into writer: inout ByteWriter) {
    // One pass counts the keys and fits their coding; then the counts, and the keys: each read
    // from the chunks' spans and arenas, with no lookup per row.
    var total = 0
    var countsSize = 0
    var fitting = CompactKeyCoding.Fitting()
    column.forEachChunk { rows, spans, keys in
      for row in 0..<rows {
        let span = spans[row]
        countsSize &+= Varint.size(UInt64(span.count))
        total &+= Int(span.count)
        fitting.add(UnsafeBufferPointer(start: keys + Int(span.start), count: Int(span.count)))
      }
    }
    writer.appendSection(size: countsSize) { out in
      var offset = 0
      column.forEachChunk { rows, spans, _ in
        for row in 0..<rows {
          offset = Varint.store(UInt64(spans[row].count), into: out, at: offset)
        }
      }
    }
    writer.append(UInt64(total))
    let coding = fitting.coding
    coding.writeHeader(into: &writer)
    writer.appendSection(size: fitting.sectionSize) { out in
      var offset = 0
      var previous: UInt32 = 0
      column.forEachChunk { rows, spans, keys in
        for row in 0..<rows {
          let span = spans[row]
          let list = UnsafeBufferPointer(start: keys + Int(span.start), count: Int(span.count))
          offset = coding.store(list, previous: &previous, into: out, at: offset)
        }
      }
    }
  }

  /// Reads what ``encodeCompactKeyLists(_:into:)`` wrote into `column`, grown to `count` empty
  /// rows.
  static func decodeCompactKeyLists(
    _ column: KeyListColumn, count: Int, from reader: inout ByteReader
  ) throws {
    var (counts, countsStart) = try reader.readSection()
    // Every key takes at least a byte of what follows: no count, nor their sum, may be more.
    let room = reader.remaining
    var lengths = [Int](repeating: 0, count: count)
    var sum = 0
    for row in 0..<count {
      let at = counts.position
      guard let length = counts.next(), length <= UInt64(room - sum) else {
        throw reader.error("row \(row)'s key count is damaged", at: countsStart + at)
      }
      lengths[row] = Int(length)
      sum += Int(length)
    }
    guard counts.isAtEnd else {
      throw reader.error("bytes follow the last key count", at: countsStart + counts.position)
    }
    let totalStart = reader.position
    let total = try reader.readCount(minimumSize: 1)
    guard sum == total else {
      throw reader.error("the rows hold \(sum) keys, the column says \(total)", at: totalStart)
    }
    let coding = try CompactKeyCoding(from: &reader)
    var (keys, keysStart) = try reader.readSection()
    // Every key takes at least a byte: a total the section cannot hold is refused before the
    // chunks are reserved.
    guard total <= keys.bytes.count else {
      throw reader.error(
        "\(total) keys do not fit in a section of \(keys.bytes.count) bytes", at: totalStart)
    }
    // One entity and one generation: each key is its row's varint alone.
    let rowOnlyGeneration = coding.isRowOnly ? coding.sharedGeneration : nil
    let shift = AnyColumn.chunkShift
    var previous: UInt32 = 0
    var row = 0
    while row < count {
      let first = row
      let rows = min(count - row, 1 << shift)
      var chunkKeys = 0
      for offset in 0..<rows { chunkKeys += lengths[first + offset] }
      var damaged: (row: Int, at: Int)?
      /// The offset in the chunk of the row holding the chunk's key `index` (for errors).
      func chunkRow(of index: Int) -> Int {
        var keysBefore = 0
        for offset in 0..<rows {
          keysBefore += lengths[first + offset]
          if index < keysBefore { return offset }
        }
        return rows - 1
      }
      let loaded = column.chunkForLoading(first >> shift).load(total: chunkKeys) { spans, out in
        var next = 0
        for offset in 0..<rows {
          let length = lengths[first + offset]
          spans[offset] =
            length == 0
            ? KeySpan(start: 0, count: 0)
            : KeySpan(start: UInt32(truncatingIfNeeded: next), count: UInt32(length))
          if rowOnlyGeneration != nil {
            next += length
            continue
          }
          for _ in 0..<length {
            let at = keys.position
            guard case .some(.some(let key)) = coding.load(from: &keys, previous: &previous)
            else {
              damaged = (first + offset, at)
              return false
            }
            (out + next).initialize(to: key)
            next += 1
          }
        }
        guard let generation = rowOnlyGeneration else { return true }
        // The chunk's keys are back to back whatever their rows: decoded in one pass, eight
        // one-byte keys at a time where they can be.
        var key = ObjectKey.placeholder
        key.entity = coding.entity
        key.generation = generation
        var index = 0
        while index < chunkKeys {
          let at = keys.position
          if chunkKeys &- index >= 8, let batch = keys.nextEightSmall() {
            for code in 0..<8 {
              let lead = (batch >> UInt64(code &* 8)) & 0xFF
              guard lead != 0, let row = CompactKeyCoding.row(lead: lead, previous: previous)
              else {
                damaged = (row: first + chunkRow(of: index + code), at: at + code)
                return false
              }
              previous = row
              key.row = row
              (out + index + code).initialize(to: key)
            }
            index += 8
            continue
          }
          guard let row = CompactKeyCoding.loadRow(from: &keys, previous: &previous), row >= 0
          else {
            damaged = (row: first + chunkRow(of: index), at: at)
            return false
          }
          key.row = UInt32(truncatingIfNeeded: row)
          (out + index).initialize(to: key)
          index += 1
        }
        return true
      }
      if !loaded, let damaged {
        throw reader.error(
          "row \(damaged.row) holds a damaged or absent key", at: keysStart + damaged.at)
      }
      row += rows
    }
    guard keys.isAtEnd else {
      throw reader.error("bytes follow the last key", at: keysStart + keys.position)
    }
  }
}
