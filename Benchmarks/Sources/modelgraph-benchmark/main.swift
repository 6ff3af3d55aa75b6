import BenchmarkKit
import ModelGraphEngine

var catalog = EngineCatalog()
catalog.register("modelgraph", first: true) { _ in ModelGraphBenchmarkEngine() }
BenchmarkCommand.main(allocator: .glibc, catalog: catalog)
