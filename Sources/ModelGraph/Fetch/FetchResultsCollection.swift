/// The results of a batched fetch: a random-access collection that makes its elements one
/// batch at a time, as SwiftData's `FetchResultsCollection` does.
///
/// The fetch finds every match's identity up front; reading an element materializes the batch
/// that holds it and releases the previous batch, so the collection itself keeps at most one
/// batch of objects alive (objects a caller keeps, or with unsaved changes, stay alive as
/// usual). Not `Sendable`: it reads through its context.
///
/// An object deleted and saved after the fetch is still an element, as a handle whose
/// `isDeleted` is `true`.
public struct FetchResultsCollection<Element>: RandomAccessCollection {
  let loader: FetchBatchLoader<Element>

  /// Zero.
  public var startIndex: Int { 0 }

  /// The number of results.
  public var endIndex: Int { loader.count }

  /// The element at `position`, making its batch first when it is not the current one.
  ///
  /// - Complexity: O(1) within the current batch; O(batch size) to make another batch.
  public subscript(position: Int) -> Element { loader.element(at: position) }
}

/// The current batch of a ``FetchResultsCollection``, and how to make another.
final class FetchBatchLoader<Element> {
  let count: Int
  let batchSize: Int
  private let load: (Range<Int>) -> [Element]
  private var batchStart = 0
  private var batch: [Element] = []

  init(count: Int, batchSize: Int, load: @escaping (Range<Int>) -> [Element]) {
    self.count = count
    self.batchSize = batchSize
    self.load = load
  }

  func element(at position: Int) -> Element {
    require(
      position >= 0 && position < count,
      "FetchResultsCollection index \(position) is out of bounds 0..<\(count)")
    if position < batchStart || position >= batchStart + batch.count {
      // Released before the next batch is made, so two batches are never alive at once.
      batch = []
      batchStart = position - position % batchSize
      batch = load(batchStart..<min(batchStart + batchSize, count))
    }
    return batch[position - batchStart]
  }
}
