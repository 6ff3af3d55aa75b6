import Foundation

/// JSON in one form per value: every string in Unicode normalization form C, every object's
/// members sorted by the bytes of their keys, no white space. Swift's `String ==` is canonical
/// equivalence, so two `==` strings have equal NFC bytes; with the members in one order, two
/// `==` values of a type ``CanonicalEquality`` accepts encode to equal bytes.
///
/// Numbers and literals are kept as written. Returns `nil` when `data` is not JSON as
/// `JSONEncoder` writes it.
func canonicalJSON(_ data: Data) -> Data? {
  var reader = CanonicalJSONReader(bytes: [UInt8](data))
  var output: [UInt8] = []
  output.reserveCapacity(data.count)
  guard reader.value(into: &output), reader.position == reader.bytes.count else { return nil }
  return Data(output)
}

private struct CanonicalJSONReader {
  let bytes: [UInt8]
  var position = 0

  init(bytes: [UInt8]) { self.bytes = bytes }

  /// Reads one value and appends its canonical form.
  mutating func value(into output: inout [UInt8]) -> Bool {
    guard position < bytes.count else { return false }
    switch bytes[position] {
    case UInt8(ascii: "{"): return object(into: &output)
    case UInt8(ascii: "["): return array(into: &output)
    case UInt8(ascii: "\""):
      guard let text = string() else { return false }
      output += text
      return true
    default:
      // A number or a literal: up to the next delimiter, as written.
      let start = position
      while position < bytes.count, !Self.delimiters.contains(bytes[position]) { position += 1 }
      guard position > start else { return false }
      output += bytes[start..<position]
      return true
    }
  }

  private static let delimiters: Set<UInt8> = Set(",]}:".utf8)

  private mutating func array(into output: inout [UInt8]) -> Bool {
    position += 1
    output.append(UInt8(ascii: "["))
    if position < bytes.count, bytes[position] == UInt8(ascii: "]") {
      position += 1
      output.append(UInt8(ascii: "]"))
      return true
    }
    while true {
      guard value(into: &output), position < bytes.count else { return false }
      let separator = bytes[position]
      position += 1
      output.append(separator)
      if separator == UInt8(ascii: "]") { return true }
      guard separator == UInt8(ascii: ",") else { return false }
    }
  }

  private mutating func object(into output: inout [UInt8]) -> Bool {
    position += 1
    var members: [(key: [UInt8], value: [UInt8])] = []
    if position < bytes.count, bytes[position] == UInt8(ascii: "}") {
      position += 1
    } else {
      while true {
        guard position < bytes.count, bytes[position] == UInt8(ascii: "\""),
          let key = string(), position < bytes.count, bytes[position] == UInt8(ascii: ":")
        else { return false }
        position += 1
        var value: [UInt8] = []
        guard self.value(into: &value), position < bytes.count else { return false }
        members.append((key, value))
        let separator = bytes[position]
        position += 1
        if separator == UInt8(ascii: "}") { break }
        guard separator == UInt8(ascii: ",") else { return false }
      }
    }
    members.sort { $0.key.lexicographicallyPrecedes($1.key) }
    output.append(UInt8(ascii: "{"))
    for (index, member) in members.enumerated() {
      if index > 0 { output.append(UInt8(ascii: ",")) }
      output += member.key
      output.append(UInt8(ascii: ":"))
      output += member.value
    }
    output.append(UInt8(ascii: "}"))
    return true
  }

  /// Reads a string and returns it, quotes included, in NFC. Escapes stay as written: the
  /// encoder escapes only quotes, backslashes, slashes and control characters, none of which
  /// composes with a neighbour.
  private mutating func string() -> [UInt8]? {
    let start = position
    position += 1
    var escaped = false
    var isASCII = true
    while position < bytes.count {
      let byte = bytes[position]
      position += 1
      if escaped {
        escaped = false
      } else if byte == UInt8(ascii: "\\") {
        escaped = true
      } else if byte == UInt8(ascii: "\"") {
        let text = bytes[start..<position]
        // ASCII text is already in NFC.
        if isASCII { return Array(text) }
        return Array(
          String(decoding: text, as: UTF8.self).precomposedStringWithCanonicalMapping.utf8)
      } else if byte >= 0x80 {
        isASCII = false
      }
    }
    return nil
  }
}
