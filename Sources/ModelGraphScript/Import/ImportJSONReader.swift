/// Reads JSON for `.import`, keeping the text of each number that is not an `Int64`, so a
/// `Decimal` (or `UInt`) attribute takes exactly the digits the file writes: `JSONDecoder` and
/// `JSONSerialization` read numbers through `Double` or cut them at 38 digits.
///
/// JSON as RFC 8259 writes it (no comments, `NaN` or leading zeros; strings valid UTF-8 with
/// valid escapes), but for a trailing comma in an array or object, which Foundation's readers
/// take too. Nesting deeper than ``maximumDepth`` is refused, not a
/// stack overflow. A key written twice in one object is refused, as the two values disagree on
/// which one the record means.
struct ImportJSONReader {
  /// Why the text is not JSON, and where.
  struct Failure: Error {
    /// What is wrong, e.g. `expected ',' or ']'`.
    let message: String
    /// The offset of the byte where it is wrong.
    let offset: Int
  }

  /// Arrays and objects nest at most this deep.
  static let maximumDepth = 512

  private let bytes: [UInt8]
  private var position = 0
  private var depth = 0

  private init(_ bytes: [UInt8]) { self.bytes = bytes }

  /// The JSON value `bytes` holds (after an optional UTF-8 byte order mark).
  ///
  /// Integers that fit `Int64` are ``ImportValue/int(_:)``; every other number is
  /// ``ImportValue/number(_:)`` with its text.
  /// - Throws: ``Failure`` when the bytes are not one JSON value.
  static func value<Bytes: Collection<UInt8>>(_ bytes: Bytes) throws(Failure) -> ImportValue {
    var reader = ImportJSONReader(Array(bytes))
    if reader.bytes.starts(with: [0xEF, 0xBB, 0xBF]) { reader.position = 3 }
    let value = try reader.value()
    reader.skipWhitespace()
    guard reader.position == reader.bytes.count else {
      throw reader.failure("unexpected text after the JSON value")
    }
    return value
  }

  private func failure(_ message: String) -> Failure {
    Failure(message: message, offset: position)
  }

  private mutating func skipWhitespace() {
    while position < bytes.count,
      bytes[position] == 0x20 || bytes[position] == 0x0A || bytes[position] == 0x0D
        || bytes[position] == 0x09
    {
      position += 1
    }
  }

  private mutating func value() throws(Failure) -> ImportValue {
    skipWhitespace()
    guard position < bytes.count else { throw failure("the text ends where a value belongs") }
    switch bytes[position] {
    case UInt8(ascii: "{"): return try nested { reader throws(Failure) in try reader.object() }
    case UInt8(ascii: "["): return try nested { reader throws(Failure) in try reader.array() }
    case UInt8(ascii: "\""): return .string(try string())
    case UInt8(ascii: "t"): return try word("true", .bool(true))
    case UInt8(ascii: "f"): return try word("false", .bool(false))
    case UInt8(ascii: "n"): return try word("null", .null)
    case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try number()
    default: throw failure("expected a JSON value")
    }
  }

  /// An array or object one level deeper.
  private mutating func nested(
    _ read: (inout ImportJSONReader) throws(Failure) -> ImportValue
  ) throws(Failure) -> ImportValue {
    guard depth < Self.maximumDepth else {
      throw failure("arrays and objects nest deeper than \(Self.maximumDepth) levels")
    }
    depth += 1
    defer { depth -= 1 }
    return try read(&self)
  }

  private mutating func word(_ text: StaticString, _ value: ImportValue) throws(Failure)
    -> ImportValue
  {
    let expected = UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount)
    guard bytes[position...].starts(with: expected) else { throw failure("expected \(text)") }
    position += expected.count
    return value
  }

  private mutating func array() throws(Failure) -> ImportValue {
    var values: [ImportValue] = []
    try elements(closing: "]", inside: "an array") { reader throws(Failure) in
      values.append(try reader.value())
    }
    return .array(values)
  }

  private mutating func object() throws(Failure) -> ImportValue {
    var fields: [String: ImportValue] = [:]
    try elements(closing: "}", inside: "an object") { reader throws(Failure) in
      guard reader.position < reader.bytes.count,
        reader.bytes[reader.position] == UInt8(ascii: "\"")
      else {
        throw reader.failure("expected a key in quotes")
      }
      let keyOffset = reader.position
      let key = try reader.string()
      reader.skipWhitespace()
      guard reader.position < reader.bytes.count, reader.bytes[reader.position] == UInt8(ascii: ":")
      else {
        throw reader.failure("expected ':' after a key")
      }
      reader.position += 1
      let field = try reader.value()
      guard fields.updateValue(field, forKey: key) == nil else {
        throw Failure(
          message: "the key \"\(key)\" is written twice in one object", offset: keyOffset)
      }
    }
    return .object(fields)
  }

  /// Reads the elements of an array or object from its opening bracket through `closing`,
  /// calling `element` at each (after its leading whitespace): separated by commas, with a
  /// trailing comma taken, as Foundation's readers take it.
  private mutating func elements(
    closing: Unicode.Scalar, inside container: String,
    _ element: (inout ImportJSONReader) throws(Failure) -> Void
  ) throws(Failure) {
    let closing = UInt8(ascii: closing)
    position += 1
    skipWhitespace()
    if consume(closing) { return }
    while true {
      try element(&self)
      skipWhitespace()
      guard position < bytes.count else { throw failure("the text ends inside \(container)") }
      if consume(closing) { return }
      guard bytes[position] == UInt8(ascii: ",") else {
        throw failure("expected ',' or '\(Unicode.Scalar(closing))'")
      }
      position += 1
      skipWhitespace()
      if consume(closing) { return }
    }
  }

  /// Whether the next byte is `byte`, which is then passed over.
  private mutating func consume(_ byte: UInt8) -> Bool {
    guard position < bytes.count, bytes[position] == byte else { return false }
    position += 1
    return true
  }

  /// A number: `.int` when it is an integer that fits `Int64`, else its text.
  private mutating func number() throws(Failure) -> ImportValue {
    let start = position
    var isInteger = true
    if bytes[position] == UInt8(ascii: "-") { position += 1 }
    guard position < bytes.count, isDigit(bytes[position]) else {
      throw failure("expected a digit")
    }
    if bytes[position] == UInt8(ascii: "0") {
      position += 1
      if position < bytes.count, isDigit(bytes[position]) {
        throw failure("a number does not start with 0 followed by digits")
      }
    } else {
      skipDigits()
    }
    if position < bytes.count, bytes[position] == UInt8(ascii: ".") {
      isInteger = false
      position += 1
      guard position < bytes.count, isDigit(bytes[position]) else {
        throw failure("expected a digit after the decimal point")
      }
      skipDigits()
    }
    if position < bytes.count, bytes[position] | 0x20 == UInt8(ascii: "e") {
      isInteger = false
      position += 1
      if position < bytes.count,
        bytes[position] == UInt8(ascii: "+") || bytes[position] == UInt8(ascii: "-")
      {
        position += 1
      }
      guard position < bytes.count, isDigit(bytes[position]) else {
        throw failure("expected a digit in the exponent")
      }
      skipDigits()
    }
    let text = String(decoding: bytes[start..<position], as: UTF8.self)
    if isInteger, let integer = Int64(text) { return .int(integer) }
    return .number(text)
  }

  private func isDigit(_ byte: UInt8) -> Bool {
    byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
  }

  private mutating func skipDigits() {
    while position < bytes.count, isDigit(bytes[position]) { position += 1 }
  }

  /// A string, the opening quote at `position`.
  private mutating func string() throws(Failure) -> String {
    position += 1
    var utf8: [UInt8] = []
    var runStart = position
    while true {
      guard position < bytes.count else { throw failure("the text ends inside a string") }
      let byte = bytes[position]
      switch byte {
      case UInt8(ascii: "\""):
        utf8 += bytes[runStart..<position]
        position += 1
        guard let text = String(validating: utf8, as: UTF8.self) else {
          throw Failure(message: "a string is not valid UTF-8", offset: runStart)
        }
        return text
      case UInt8(ascii: "\\"):
        utf8 += bytes[runStart..<position]
        position += 1
        try escape(into: &utf8)
        runStart = position
      case 0..<0x20:
        throw failure("a control character in a string must be escaped")
      default:
        position += 1
      }
    }
  }

  /// One escape after its backslash, appended as UTF-8.
  private mutating func escape(into utf8: inout [UInt8]) throws(Failure) {
    guard position < bytes.count else { throw failure("the text ends inside a string") }
    let byte = bytes[position]
    position += 1
    switch byte {
    case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): utf8.append(byte)
    case UInt8(ascii: "b"): utf8.append(0x08)
    case UInt8(ascii: "f"): utf8.append(0x0C)
    case UInt8(ascii: "n"): utf8.append(0x0A)
    case UInt8(ascii: "r"): utf8.append(0x0D)
    case UInt8(ascii: "t"): utf8.append(0x09)
    case UInt8(ascii: "u"):
      var scalar = try hexUnit()
      if (0xD800..<0xDC00).contains(scalar) {
        guard bytes[position...].starts(with: [UInt8(ascii: "\\"), UInt8(ascii: "u")]) else {
          throw failure("a \\u escape of a high surrogate needs a low surrogate after it")
        }
        position += 2
        let low = try hexUnit()
        guard (0xDC00..<0xE000).contains(low) else {
          throw failure("a \\u escape of a high surrogate needs a low surrogate after it")
        }
        scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
      }
      guard let unicode = Unicode.Scalar(scalar) else {
        throw failure("a \\u escape of a lone low surrogate is not a character")
      }
      utf8 += Array(String(Character(unicode)).utf8)
    default:
      position -= 1
      throw failure("not an escape: \\\(Character(Unicode.Scalar(byte)))")
    }
  }

  /// The four hex digits of a `\u` escape.
  private mutating func hexUnit() throws(Failure) -> UInt32 {
    guard position + 4 <= bytes.count,
      let unit = UInt32(String(decoding: bytes[position..<position + 4], as: UTF8.self), radix: 16),
      bytes[position..<position + 4].allSatisfy({
        $0 != UInt8(ascii: "+") && $0 != UInt8(ascii: "-")
      })
    else { throw failure("a \\u escape needs four hex digits") }
    position += 4
    return unit
  }
}
