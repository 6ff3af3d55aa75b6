/// The memory allocator this executable runs with.
package struct Allocator: Sendable {
  /// `glibc` or `jemalloc`.
  package var name: String
  /// What the allocator reported about itself, such as its version.
  package var detail: String

  /// An allocator description.
  package init(name: String, detail: String) {
    self.name = name
    self.detail = detail
  }

  /// glibc's malloc, the default.
  package static let glibc = Allocator(name: "glibc", detail: "glibc malloc")

  /// Whether this is jemalloc.
  package var isJemalloc: Bool { name == "jemalloc" }
}
