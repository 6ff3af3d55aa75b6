/// The parent side: one child process per engine (and per SQLite layout), lines read back.
struct ParentRun {
  var options: Options
  var allocator: Allocator

  /// Runs every engine at `scale`, printing lines as they arrive.
  func run(scale: Int, engines: [String]) -> ScaleRun {
    var result = ScaleRun(scale: scale, engines: engines)
    for label in engines {
      let isJemalloc = label.hasSuffix("-jemalloc")
      let base = isJemalloc ? String(label.dropLast("-jemalloc".count)) : label
      guard let executable = executable(jemalloc: isJemalloc) else {
        result.failures.append("\(label): modelgraph-benchmark-jemalloc is not built")
        continue
      }
      let layouts: [SQLiteLayout?] = base == "sqlite" ? options.sqliteLayouts : [nil]
      var perLayout: [(SQLiteLayout, [ResultLine])] = []
      for layout in layouts {
        let lines = runChild(
          executable, engine: base, label: label, layout: layout, scale: scale,
          quiet: layouts.count > 1, into: &result)
        if let layout {
          perLayout.append((layout, lines))
          result.checkLines += lines.map {
            var line = $0
            line.engine = layouts.count > 1 ? "\(label)/\(layout.rawValue)" : label
            return line
          }
        } else {
          result.lines += lines
          result.checkLines += lines
        }
      }
      if !perLayout.isEmpty {
        let merged = LayoutMerge.merge(perLayout)
        if perLayout.count > 1 {
          for line in merged { Console.line(line.text) }
        }
        result.lines += merged
      }
    }
    return result
  }

  private func executable(jemalloc: Bool) -> String? {
    if jemalloc == allocator.isJemalloc { return ChildProcess.currentExecutable }
    let name = jemalloc ? "modelgraph-benchmark-jemalloc" : "modelgraph-benchmark"
    return ChildProcess.sibling(name)
  }

  private func runChild(
    _ executable: String, engine: String, label: String, layout: SQLiteLayout?, scale: Int,
    quiet: Bool, into result: inout ScaleRun
  ) -> [ResultLine] {
    var lines: [ResultLine] = []
    let arguments = options.childArguments(
      engine: engine, label: label, layout: layout, scale: scale)
    do {
      let status = try ChildProcess.run(executable, arguments) { text in
        guard var line = ResultLine(parsing: text) else {
          if text.hasPrefix("#") { result.notes.append(String(text)) }
          Console.line(String(text))
          return
        }
        if let layout, !line.isSkipped { line.set("layout", layout.rawValue) }
        if options.scaling { line.set("scale", String(scale)) }
        Console.line(quiet ? "#   \(line.text)" : line.text)
        lines.append(line)
      }
      if status != 0 {
        result.failures.append("\(label)\(layout.map { "/" + $0.rawValue } ?? ""): exit \(status)")
      }
    } catch {
      result.failures.append("\(label): cannot start \(executable): \(error)")
    }
    return lines
  }
}
