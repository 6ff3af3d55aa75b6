/// The view of a built index, made the first time a reader asks for it and kept.
///
/// A save carries every index built for a table it writes to the version it publishes
/// (``IndexShelf/carry(from:to:)``); making each carried index's view there (sorting an
/// ordered index's changes by key, hashing its removed rows, allocating its closures) cost
/// every save O(√n log n) per ordered index, also for indexes no query reads. Made lazily, a
/// save pays only for the views queries ask for.
final class LazyIndexView: @unchecked Sendable {
  // @unchecked Sendable: `made` is set once (``OnceReference``); `make` is called by any thread
  // but only reads.

  private final class Made {
    let view: any TableIndex
    init(_ view: any TableIndex) { self.view = view }
  }

  private let made = OnceReference<Made>()
  private let make: () -> any TableIndex

  /// A view not made yet, which `make` makes. Form `make` where the index's key type is
  /// known (a built index's initializer): a view made from the unspecialized generic code a
  /// ``BuiltIndex`` existential reaches ran its per-row closures unspecialized (about 100,000
  /// instructions more for each of W12's transactions).
  init(_ make: @escaping () -> any TableIndex) {
    self.make = make
  }

  /// Whether a reader has asked for the view yet.
  var isMade: Bool { made.value != nil }

  /// The view: the one made already, else a new one (or the one another reader made
  /// meanwhile).
  ///
  /// - Complexity: O(1) once made; otherwise the cost of making it.
  var view: any TableIndex { made.value { Made(make()) }.view }
}
