import Foundation

@testable import ModelGraphCore

/// Rewrites the closed store file at `url` without the Codable shapes its schema records, as a
/// file written before snapshot format 5 holds none: the runner then infers them.
func removeCodableShapes(_ url: URL) throws {
  let files = StoreFiles(path: url.path)
  guard let version = try files.recover().version else { return }
  var catalog = version.catalog
  catalog.codableShapes = [:]
  try files.overwrite(
    with: StoreVersion(number: version.number, catalog: catalog, tables: version.tables))
}
