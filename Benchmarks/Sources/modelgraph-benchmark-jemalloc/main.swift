import BenchmarkKit
import CJemalloc
import ModelGraphEngine

/// jemalloc's own version string (`mallctl("version")`); calling it also keeps the library
/// linked, so jemalloc's `malloc` replaces glibc's for the whole process.
func jemallocVersion() -> String {
  var version: UnsafePointer<CChar>?
  var size = MemoryLayout<UnsafePointer<CChar>?>.size
  guard mallctl("version", &version, &size, nil, 0) == 0, let version else { return "?" }
  return String(cString: version)
}

var catalog = EngineCatalog()
catalog.register("modelgraph", first: true) { _ in ModelGraphBenchmarkEngine() }
BenchmarkCommand.main(
  allocator: Allocator(name: "jemalloc", detail: "jemalloc \(jemallocVersion())"), catalog: catalog)
