extension PostgreSQLStore {
  /// `statements` (inserts, which run in any order) with those kept prepared sent as one
  /// statement: each but the last in a `WITH` part, its parameters numbered after those
  /// before it. A save then pays the server's cost of one statement, not one per table.
  ///
  /// The parts see the same snapshot and none reads another's rows: the rows they insert
  /// differ, and the foreign keys and unique constraints that could relate them are checked
  /// at the commit. Large inserts (not kept prepared) stay statements of their own.
  func merged(_ statements: [PostgreSQLStatement]) -> [PostgreSQLStatement] {
    let parts = statements.filter(\.reused)
    let count = parts.reduce(0) { $0 + $1.parameters.count }
    guard parts.count > 1, count <= 65_535 else { return statements }
    let key = parts.map(\.sql)
    let text: String
    if let cached = mergedTexts[key] {
      text = cached
    } else {
      text = Self.mergedText(parts)
      if mergedTexts.count >= 256 { mergedTexts = [:] }
      mergedTexts[key] = text
    }
    return [PostgreSQLStatement(text, parts.flatMap(\.parameters))]
      + statements.filter { !$0.reused }
  }

  /// The text of ``merged(_:)``: `WITH m0 AS (first), m1 AS (second) last`.
  static func mergedText(_ parts: [PostgreSQLStatement]) -> String {
    var text = "WITH "
    var offset = 0
    for (index, part) in parts.enumerated() {
      let renumbered = self.renumbered(part.sql, by: offset)
      if index == parts.count - 1 {
        text += " " + renumbered
      } else {
        text += (index > 0 ? ", " : "") + "m\(index) AS (\(renumbered))"
      }
      offset += part.parameters.count
    }
    return text
  }

  /// `sql` with each parameter `$n` written `$(n + offset)`; text in double quotes
  /// (identifiers) or single quotes (literals) is left as it is.
  static func renumbered(_ sql: String, by offset: Int) -> String {
    guard offset > 0 else { return sql }
    let bytes = Array(sql.utf8)
    var result: [UInt8] = []
    result.reserveCapacity(bytes.count + 16)
    var quote: UInt8?
    var index = 0
    func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }
    while index < bytes.count {
      let byte = bytes[index]
      index += 1
      if let open = quote {
        if byte == open { quote = nil }
        result.append(byte)
      } else if byte == 0x22 || byte == 0x27 {
        quote = byte
        result.append(byte)
      } else if byte == 0x24, index < bytes.count, isDigit(bytes[index]) {
        var number = 0
        while index < bytes.count, isDigit(bytes[index]) {
          number = number * 10 + Int(bytes[index] - 0x30)
          index += 1
        }
        result.append(0x24)
        result.append(contentsOf: String(number + offset).utf8)
      } else {
        result.append(byte)
      }
    }
    return String(decoding: result, as: UTF8.self)
  }
}
