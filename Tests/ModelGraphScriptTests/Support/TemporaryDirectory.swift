import Foundation

/// A new, empty directory under the system's temporary directory, named after the test file
/// that asked for it; the caller removes it.
func temporaryDirectory(file: String = #fileID) throws -> URL {
  let stem = file.split(separator: "/").last.map { $0.replacingOccurrences(of: ".swift", with: "") }
  let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
    "modelgraph-\(stem ?? "test")-\(UUID().uuidString)")
  try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
  return directory
}
