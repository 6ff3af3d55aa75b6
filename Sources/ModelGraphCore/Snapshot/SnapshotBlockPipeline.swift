import Dispatch
import Synchronization

/// A block of a snapshot file still to be encoded: its kind and the code that writes its payload.
struct SnapshotBlockSource: @unchecked Sendable {
  // @unchecked Sendable: `body` reads a published store version, which nothing changes, and
  // each source is encoded by one thread only.

  var kind: SnapshotFormat.BlockKind
  /// A guess at the payload's size in bytes: sizes its buffer and groups blocks into windows.
  var estimate: Int
  var body: (inout ByteWriter) -> Void

  /// The whole block: kind, payload length, payload, then the CRC-32C of all of those.
  func encoded(lengthLimit: Int) -> ByteWriter {
    var writer = ByteWriter()
    writer.lengthLimit = lengthLimit
    writer.bytes.reserveCapacity(estimate + 16)
    writer.append(kind.rawValue)
    writer.append(UInt64(0))
    body(&writer)
    let length = UInt64(writer.bytes.count - 12)
    writer.bytes.withUnsafeMutableBytes {
      $0.storeBytes(of: length.littleEndian, toByteOffset: 4, as: UInt64.self)
    }
    writer.append(writer.bytes.withUnsafeBytes { CRC32C.checksum($0) })
    return writer
  }
}

/// Encodes the blocks of a snapshot on two threads and hands them on in file order.
///
/// The blocks go in windows of at least two blocks and about ``windowBytes``. While a background
/// thread starts on a window, the calling thread hands the previous window's blocks to the
/// consumer (which writes them to the file), then joins the encoding. So encoding,
/// checksumming and the kernel's copy of the written bytes overlap, and at most two windows are
/// held in memory (a store's largest columns make the largest windows: two of its largest
/// blocks each).
enum SnapshotBlockPipeline {
  /// The estimated payload bytes of one window (of two blocks at least).
  static let windowBytes = 16 << 20
  /// Below this estimated total, every block is encoded on the calling thread.
  static let parallelThreshold = 1 << 20

  /// Encodes `sources` and calls `emit` with each encoded block, in order.
  ///
  /// - Parameters:
  ///   - windowBytes: The estimated payload bytes of one window.
  ///   - parallelThreshold: Below this estimated total, one thread encodes every block.
  /// - Throws: What `emit` throws; no block is emitted after it, and both threads are done
  ///   when it is rethrown.
  static func run(
    _ sources: [SnapshotBlockSource], lengthLimit: Int,
    windowBytes: Int = SnapshotBlockPipeline.windowBytes,
    parallelThreshold: Int = SnapshotBlockPipeline.parallelThreshold,
    emit: (ByteWriter) throws -> Void
  ) rethrows {
    guard sources.reduce(0, { $0 + $1.estimate }) >= parallelThreshold else {
      for source in sources { try emit(source.encoded(lengthLimit: lengthLimit)) }
      return
    }
    var previous: [ByteWriter] = []
    var start = 0
    while start < sources.count {
      var end = start
      var size = 0
      while end < sources.count, end < start + 2 || size < windowBytes {
        size += sources[end].estimate
        end += 1
      }
      let window = Window(Array(sources[start..<end]), lengthLimit: lengthLimit)
      DispatchQueue.global().async { window.help() }
      do {
        for block in previous { try emit(block) }
      } catch {
        window.abandon()
        window.finish()
        throw error
      }
      previous = []
      window.encode()
      window.finish()
      previous = window.results()
      start = end
    }
    for block in previous { try emit(block) }
  }

  /// One window's blocks, which two threads take one at a time.
  private final class Window: @unchecked Sendable {
    // @unchecked Sendable: each result slot is written by the one thread that took its index
    // from `next`, and read only after both threads are done (`finished` orders it).

    let sources: [SnapshotBlockSource]
    let lengthLimit: Int
    let next = Atomic<Int>(0)
    /// Set by whichever comes first: the helper starting, or the caller done without it.
    private let claimed = Atomic<Bool>(false)
    /// Signalled when the helper, having started, is done.
    private let finished = DispatchSemaphore(value: 0)
    let slots: UnsafeMutableBufferPointer<ByteWriter?>

    init(_ sources: [SnapshotBlockSource], lengthLimit: Int) {
      self.sources = sources
      self.lengthLimit = lengthLimit
      slots = .allocate(capacity: sources.count)
      slots.initialize(repeating: nil)
    }

    deinit {
      slots.deinitialize()
      slots.deallocate()
    }

    /// Encodes blocks until none is left to take.
    func encode() {
      while true {
        let index = next.wrappingAdd(1, ordering: .relaxed).oldValue
        guard index < sources.count else { return }
        slots[index] = sources[index].encoded(lengthLimit: lengthLimit)
      }
    }

    /// The background thread's part: encodes blocks, unless the caller finished first.
    func help() {
      guard
        claimed.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing)
          .exchanged
      else { return }
      encode()
      finished.signal()
    }

    /// The caller's wait once it has encoded what it could: for the helper only when the helper
    /// started, so a helper the system has not scheduled yet is never waited for.
    func finish() {
      if claimed.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing)
        .exchanged
      {
        return
      }
      finished.wait()
    }

    /// Leaves the blocks no thread has taken yet unencoded.
    func abandon() {
      next.store(sources.count, ordering: .relaxed)
    }

    /// The encoded blocks, in order, once every block is encoded.
    func results() -> [ByteWriter] {
      slots.map { slot in
        guard let slot else { preconditionFailure("a block of the window was not encoded") }
        return slot
      }
    }
  }
}
