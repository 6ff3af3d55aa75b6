/// Appends little-endian integers and bytes to a growing buffer.
///
/// The buffer keeps spare bytes past those written, so that appending an integer stores it
/// and moves the end: no `Array.append` per value. Reading or changing ``bytes`` drops the
/// spare bytes first, without copying.
struct ByteWriter {
  /// The bytes written, then ``spare`` bytes not written yet.
  private var storage: [UInt8] = []
  /// How many bytes at the end of ``storage`` are not written.
  private var spare = 0
  /// The longest string or data value a 4-byte length can announce.
  var lengthLimit = Int(UInt32.max)
  /// The byte count of the first string or data value longer than ``lengthLimit``; the bytes
  /// written are then unusable.
  var oversized: Int?
  /// How many bytes were written before ``bytes`` (handed on and removed).
  var flushed = 0

  /// The bytes written.
  var bytes: [UInt8] {
    mutating get {
      dropSpare()
      return storage
    }
    set {
      storage = newValue
      spare = 0
    }
    _modify {
      dropSpare()
      yield &storage
    }
  }

  /// The number of bytes written.
  var count: Int { storage.count &- spare }

  /// Calls `body` with the bytes written.
  func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
    let count = count
    return try storage.withUnsafeBytes { try body(UnsafeRawBufferPointer(rebasing: $0[..<count])) }
  }

  /// Drops the spare bytes.
  private mutating func dropSpare() {
    guard spare > 0 else { return }
    storage.removeLast(spare)
    spare = 0
  }

  /// Bytes that spare bytes are copied from (what they hold does not matter).
  private static let filler = [UInt8](repeating: 0, count: 1024)

  /// Makes at least `size` spare bytes: those the buffer's capacity holds (1 KiB at a time),
  /// or, when they are too few, more (the buffer then grows geometrically).
  @inline(never)
  private mutating func reserveSpare(_ size: Int) {
    let free = storage.capacity - storage.count
    var added = free >= size ? Swift.max(size, Swift.min(free, 1024)) : Swift.max(size, 64)
    spare += added
    while added > 0 {
      let piece = Swift.min(added, Self.filler.count)
      storage.append(contentsOf: Self.filler[..<piece])
      added -= piece
    }
  }

  @inline(__always)
  mutating func append<T: FixedWidthInteger>(_ value: T) {
    let size = MemoryLayout<T>.size
    if spare < size { reserveSpare(size) }
    let offset = storage.count &- spare
    storage.withUnsafeMutableBytes {
      $0.storeBytes(of: value.littleEndian, toByteOffset: offset, as: T.self)
    }
    spare &-= size
  }

  mutating func append(raw: UnsafeRawBufferPointer) {
    // Many bytes at once go the array's way; a few are copied into the spare bytes.
    guard raw.count <= 256 else {
      dropSpare()
      storage.append(contentsOf: raw)
      return
    }
    if spare < raw.count { reserveSpare(raw.count) }
    let offset = storage.count &- spare
    if let source = raw.baseAddress {
      storage.withUnsafeMutableBytes {
        ($0.baseAddress.unsafelyUnwrapped + offset).copyMemory(from: source, byteCount: raw.count)
      }
    }
    spare &-= raw.count
  }

  /// Appends `count` bytes that `body` fills in (they start zeroed).
  mutating func appendUninitialized(
    _ count: Int, _ body: (UnsafeMutableRawBufferPointer) -> Void
  ) {
    dropSpare()
    let start = storage.count
    storage.append(contentsOf: repeatElement(0, count: count))
    storage.withUnsafeMutableBytes {
      body(UnsafeMutableRawBufferPointer(rebasing: $0[start...]))
    }
  }

  /// Appends a 4-byte length and the UTF-8 bytes `utf8`, or, when they are more than
  /// ``lengthLimit``, marks the writer ``oversized``.
  mutating func append(utf8: UnsafeBufferPointer<UInt8>) {
    guard utf8.count <= lengthLimit else {
      oversized = oversized ?? utf8.count
      return
    }
    append(UInt32(utf8.count))
    append(raw: UnsafeRawBufferPointer(utf8))
  }

  mutating func append(string: String) {
    var string = string
    string.withUTF8 { append(utf8: $0) }
  }

  /// Inserts at `offset` what `append(UInt64(strings.count))` and then `append(string:)` for
  /// each string would append, moving the bytes after `offset` up.
  mutating func insert(strings: [String], at offset: Int) {
    var size = 8
    for string in strings {
      let count = string.utf8.count
      if count <= lengthLimit { size += 4 + count } else { oversized = oversized ?? count }
    }
    bytes.insert(
      contentsOf: Self.filler.count >= size
        ? Self.filler[..<size] : [UInt8](repeating: 0, count: size)[...], at: offset)
    let limit = lengthLimit
    bytes.withUnsafeMutableBytes { buffer in
      var position = offset
      buffer.storeBytes(
        of: UInt64(strings.count).littleEndian, toByteOffset: position, as: UInt64.self)
      position += 8
      for var string in strings {
        string.withUTF8 { utf8 in
          guard utf8.count <= limit else { return }
          buffer.storeBytes(
            of: UInt32(utf8.count).littleEndian, toByteOffset: position, as: UInt32.self)
          position += 4
          UnsafeMutableRawBufferPointer(rebasing: buffer[position..<position + utf8.count])
            .copyMemory(from: UnsafeRawBufferPointer(utf8))
          position += utf8.count
        }
      }
    }
  }

  mutating func append(data: some Collection<UInt8>) {
    guard data.count <= lengthLimit else {
      oversized = oversized ?? data.count
      return
    }
    append(UInt32(data.count))
    if data.withContiguousStorageIfAvailable({ append(raw: UnsafeRawBufferPointer($0)) }) == nil {
      bytes.append(contentsOf: data)
    }
  }
}
