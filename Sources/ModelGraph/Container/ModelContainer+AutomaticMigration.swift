import Foundation
import ModelGraphCore

extension ModelContainer {
  /// Writes one line to standard error naming what an automatic migration of the file at
  /// `path` changed; nothing when it changed nothing.
  static func log(_ migrated: [SchemaDifference], path: String) {
    guard !migrated.isEmpty else { return }
    let line =
      "ModelGraph: \(path): migrated without a plan: "
      + migrated.map(\.description).joined(separator: "; ") + "\n"
    FileHandle.standardError.write(Data(line.utf8))
  }
}
