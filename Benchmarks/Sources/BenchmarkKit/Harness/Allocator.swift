/// The memory allocator this executable runs with.
package struct Allocator: Sendable {
  /// `glibc` or `jemalloc`.
  package var name: String
  /// What the allocator reported about itself, such as its version.
  package var detail: String
  /// The heap allocations the calling thread has made so far, where the executable counts them
  /// (`nil` otherwise): jobs then report allocations per object or operation.
  package var threadAllocations: (@Sendable () -> Int)?

  /// An allocator description.
  package init(name: String, detail: String, threadAllocations: (@Sendable () -> Int)? = nil) {
    self.name = name
    self.detail = detail
    self.threadAllocations = threadAllocations
  }

  /// glibc's malloc, the default.
  package static let glibc = Allocator(name: "glibc", detail: "glibc malloc")

  /// Whether this is jemalloc.
  package var isJemalloc: Bool { name == "jemalloc" }
}
