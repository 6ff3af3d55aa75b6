import Foundation

/// The string tests of ``QueryStringOperator``, with the exact semantics the engine evaluates.
///
/// Each is the Swift or Foundation method it is named after; the engine takes a fast path over
/// UTF-8 bytes when both strings are ASCII without carriage returns (where bytes and characters
/// agree) and calls these otherwise.
public enum StringMatching {
  /// `string.contains(other)` on characters (the standard library's `Collection.contains(_:)`,
  /// which `#Predicate`'s `contains` calls): case-sensitive, canonical equivalence.
  public static func contains(_ string: String, _ other: String) -> Bool {
    collectionContains(string, other)
  }

  /// `string.starts(with: other)` on characters.
  public static func hasPrefix(_ string: String, _ other: String) -> Bool {
    sequenceStarts(string, other)
  }

  /// Whether the last characters of `string` are those of `other`.
  public static func hasSuffix(_ string: String, _ other: String) -> Bool {
    sequenceStarts(string.reversed(), other.reversed())
  }

  /// Foundation's `localizedStandardContains(_:)`: ignores case and diacritics, in the current
  /// locale.
  public static func localizedStandardContains(_ string: String, _ other: String) -> Bool {
    string.localizedStandardContains(other)
  }

  /// Foundation's `caseInsensitiveCompare(_:)`, as -1, 0 or 1.
  public static func caseInsensitiveCompare(_ string: String, _ other: String) -> Int {
    string.caseInsensitiveCompare(other).rawValue
  }
}

private func collectionContains<C: Collection>(_ base: C, _ other: C) -> Bool
where C.Element: Equatable {
  base.contains(other)
}

private func sequenceStarts<S: Sequence>(_ base: S, _ prefix: S) -> Bool
where S.Element: Equatable {
  base.starts(with: prefix)
}

/// A constant needle, prepared once per query for the byte-level fast paths.
struct StringPattern {
  let needle: String
  /// The needle's UTF-8 bytes, then the same lowercased (ASCII letters only).
  private let storage: NeedleBytes
  /// The needle's bytes and facts as plain values, so testing a row retains nothing.
  private let view: NeedleView
  /// ASCII, without carriage returns, not empty: bytes and characters agree.
  var isSimple: Bool { view.isSimple }

  init(_ needle: String) {
    self.needle = needle
    let bytes = Array(needle.utf8)
    storage = NeedleBytes(bytes)
    let isSimple = !bytes.isEmpty && bytes.allSatisfy { $0 < 0x80 && $0 != 0x0D }
    view = NeedleView(
      bytes: storage.bytes, lowered: storage.lowered, count: storage.count, isSimple: isSimple,
      isOrderedAsBytes: bytes.allSatisfy { $0 < 0x80 && $0 != 0x0D },
      hasNoEquivalents: isSimple
        && !bytes.contains {
          $0 == UInt8(ascii: "K") || $0 == UInt8(ascii: ";") || $0 == UInt8(ascii: "`")
        },
      hasLetters: bytes.contains { ByteSearch.foldedByte($0) != $0 || (0x61...0x7A).contains($0) })
  }

  /// The number of the needle's UTF-8 bytes.
  var needleCount: Int { view.count }

  /// Whether `op` on a simple row is true exactly when the row's bytes hold the needle's
  /// (``folds(_:)`` says whether ASCII letters match in either case): a simple needle, with
  /// `contains` or `localizedStandardContains` (which, on ASCII, ignores case and nothing
  /// else).
  func searchesBytes(_ op: QueryStringOperator) -> Bool {
    view.isSimple && (op == .contains || op == .localizedStandardContains)
  }

  /// Whether a byte search for `op` matches ASCII letters in either case: for
  /// `localizedStandardContains` of a needle with letters.
  func folds(_ op: QueryStringOperator) -> Bool {
    op == .localizedStandardContains && view.hasLetters
  }

  /// The first position at or after `from` where the chunk's arena holds the needle's bytes
  /// (with ASCII letters in either case when `folded`), or the end of the arena's bytes in use
  /// when none does (``ByteSearch/first(_:count:in:from:end:)``,
  /// ``ByteSearch/firstFolded(_:count:in:from:end:)``). Only for a simple needle (not empty).
  @inline(__always)
  func firstOccurrence(in chunk: StringChunk, from: Int, folded: Bool) -> Int {
    let view = view
    let hay = UnsafePointer(chunk.bytes)
    guard folded else {
      return ByteSearch.first(view.bytes, count: view.count, in: hay, from: from, end: chunk.used)
    }
    return ByteSearch.firstFolded(
      view.lowered, count: view.count, in: hay, from: from, end: chunk.used)
  }

  /// The test `op` of row `row` of `chunk` against the needle: over the row's bytes when both
  /// are simple ASCII, else as ``matches(_:_:)`` on the decoded string.
  @inline(__always)
  func matches(_ chunk: StringChunk, row: Int, _ op: QueryStringOperator) -> Bool {
    let view = view
    let (start, length) = chunk.span(row)
    let base = UnsafePointer(chunk.bytes + start)
    if view.isSimple {
      if chunk.isSimple(row) { return view.matchSimple(base, length, op) }
      // A complex row without arena bytes is held out of line: its bytes are not at `base`.
      if op == .contains && view.hasNoEquivalents && length != 0
        && !view.bytesContain(base, length)
      {
        return false
      }
    }
    return matches(chunk.string(row), op)
  }

  /// Whether row `row` of `chunk` equals the needle (`String`'s `==`): over the bytes when
  /// both are simple ASCII, else on the decoded string.
  @inline(__always)
  func equals(_ chunk: StringChunk, row: Int) -> Bool {
    let view = view
    let (start, length) = chunk.span(row)
    if view.isSimple && chunk.isSimple(row) {
      return length == view.count && memcmp(chunk.bytes + start, view.bytes, length) == 0
    }
    if view.count == 0 { return length == 0 && chunk.isSimple(row) }
    return chunk.string(row) == needle
  }

  /// -1, 0 or 1 as row `row` of `chunk` sorts before, equal to or after the needle by
  /// `String`'s `<`: over the bytes when both are ASCII without carriage returns, else on the
  /// decoded string.
  @inline(__always)
  func order(_ chunk: StringChunk, row: Int) -> Int {
    let view = view
    if view.isOrderedAsBytes && chunk.isSimple(row) {
      let (start, length) = chunk.span(row)
      return StringOrdering.compareBytes(chunk.bytes + start, length, view.bytes, view.count)
    }
    return StringOrdering.compareStrings(chunk.string(row), needle)
  }

  /// The test `op` of a string against the needle.
  func matches(_ string: String, _ op: QueryStringOperator) -> Bool {
    let view = view
    if view.isSimple, let fast = withUTF8(string, { view.match($0, op) }) { return fast }
    switch op {
    case .contains: return StringMatching.contains(string, needle)
    case .hasPrefix: return StringMatching.hasPrefix(string, needle)
    case .hasSuffix: return StringMatching.hasSuffix(string, needle)
    case .localizedStandardContains:
      return StringMatching.localizedStandardContains(string, needle)
    }
  }
}

/// A needle's bytes (owned by its ``StringPattern``) and what is known of them.
private struct NeedleView {
  let bytes: UnsafePointer<UInt8>
  let lowered: UnsafePointer<UInt8>
  let count: Int
  /// ASCII, without carriage returns, not empty: bytes and characters agree.
  let isSimple: Bool
  /// ASCII without carriage returns, perhaps empty: against a row of the same, byte order is
  /// `String`'s order.
  let isOrderedAsBytes: Bool
  /// Simple, and without a character that a non-ASCII character is canonically equivalent to
  /// (`K`, `;`, `` ` ``): a string whose bytes do not hold the needle's cannot contain it.
  let hasNoEquivalents: Bool
  /// Whether the needle holds an ASCII letter; without one, ignoring case changes nothing.
  let hasLetters: Bool

  /// The answer from bytes, or `nil` when the string is not simple ASCII.
  @inline(__always)
  func match(_ hay: UnsafeBufferPointer<UInt8>, _ op: QueryStringOperator) -> Bool? {
    guard let base = hay.baseAddress else { return nil }
    let length = hay.count
    if op == .contains && hasNoEquivalents {
      // Search first: most strings do not hold the bytes, and then cannot match.
      guard bytesContain(base, length) else { return false }
    }
    var flags: UInt8 = 0
    var returns: UInt8 = 0
    for index in 0..<length {
      let byte = base[index]
      flags |= byte
      returns |= byte == 0x0D ? 1 : 0
    }
    guard flags < 0x80, returns == 0 else { return nil }
    return matchSimple(base, length, op)
  }

  /// The answer for a simple (ASCII, no carriage return) string of `length` bytes at `base`.
  @inline(__always)
  func matchSimple(_ base: UnsafePointer<UInt8>, _ length: Int, _ op: QueryStringOperator)
    -> Bool
  {
    guard length >= count else { return false }
    switch op {
    case .hasPrefix:
      return ByteSearch.equal(base, bytes, count)
    case .hasSuffix:
      return ByteSearch.equal(base + (length &- count), bytes, count)
    case .contains:
      return bytesContain(base, length)
    case .localizedStandardContains:
      // On ASCII, ignoring case and diacritics is ASCII case folding, and nothing at all for
      // a needle without letters.
      guard hasLetters else { return bytesContain(base, length) }
      var start = 0
      while start <= length &- count {
        if ByteSearch.equalFolded(base + start, lowered, count) { return true }
        start &+= 1
      }
      return false
    }
  }

  /// Whether the bytes hold the needle's bytes.
  @inline(__always)
  func bytesContain(_ base: UnsafePointer<UInt8>, _ length: Int) -> Bool {
    guard length >= count else { return false }
    let first = bytes[0]
    var start = 0
    while start <= length &- count {
      if base[start] == first && ByteSearch.equal(base + start, bytes, count) { return true }
      start &+= 1
    }
    return false
  }

}

/// A needle's bytes and their ASCII-lowercased form, at stable addresses.
private final class NeedleBytes: @unchecked Sendable {
  // @unchecked Sendable: immutable after init.
  let count: Int
  let bytes: UnsafeMutablePointer<UInt8>
  let lowered: UnsafeMutablePointer<UInt8>

  init(_ source: [UInt8]) {
    count = source.count
    bytes = .allocate(capacity: max(count, 1))
    lowered = .allocate(capacity: max(count, 1))
    for (index, byte) in source.enumerated() {
      bytes[index] = byte
      lowered[index] = ByteSearch.foldedByte(byte)
    }
  }

  deinit {
    bytes.deallocate()
    lowered.deallocate()
  }
}

/// Calls `body` with the UTF-8 bytes of `string`, without copying native strings.
@inline(__always)
func withUTF8<R>(_ string: String, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
  if let result = string.utf8.withContiguousStorageIfAvailable(body) { return result }
  var copy = string
  return copy.withUTF8(body)
}
