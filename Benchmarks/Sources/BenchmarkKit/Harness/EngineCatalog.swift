/// Makes an engine for a child process, given its options.
package typealias EngineFactory = (Options) throws -> any BenchmarkEngine

/// The engines an executable can run, by name, in report order.
package struct EngineCatalog {
  /// Engine names in report order.
  package private(set) var names: [String] = []
  private var factories: [String: EngineFactory] = [:]

  /// The engines of BenchmarkKit itself: `sqlite` and `arrays`.
  package init() {
    register("sqlite") { options in
      SQLiteEngine(layout: options.sqliteLayouts.first ?? .classTables)
    }
    register("arrays") { _ in ArraysEngine() }
  }

  /// Adds an engine; `first` puts it ahead of the others in reports.
  package mutating func register(
    _ name: String, first: Bool = false, _ factory: @escaping EngineFactory
  ) {
    if factories[name] == nil {
      if first { names.insert(name, at: 0) } else { names.append(name) }
    }
    factories[name] = factory
  }

  /// The factory of `name`, if registered.
  package func factory(_ name: String) -> EngineFactory? {
    factories[name]
  }
}
