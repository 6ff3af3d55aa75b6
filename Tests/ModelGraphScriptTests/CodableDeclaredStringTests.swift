import Foundation
import ModelGraph
import Testing

@testable import ModelGraphScript

/// A Codable value with fields that Swift's `JSONEncoder` writes as strings.
private struct Reference: CompositeValue, Equatable {
  var id: UUID
  var link: URL
  var blob: Data
  var label: String
}

private final class Document: PersistentModel {
  @Attribute var name: String
  @Attribute var reference: Reference
}

/// The runner stored any string in a `UUID`, `URL` or `Data` field the Swift type declares
/// (`"abc"` as a UUID), which the Swift app then failed to decode.
@Suite("Strings in Codable values written by the runner")
struct CodableDeclaredStringTests {
  @Test("a string a declared UUID, URL or Data field cannot decode is refused; good ones read")
  func declaredStrings() throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
      "modelgraph-codable-string-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let url = directory.appendingPathComponent("documents.mgs")
    try ModelContainer(for: Document.self, configurations: ModelConfiguration(url: url))
      .snapshot()
    let id = UUID()
    let result = InProcess.run(
      """
      open "\(url.path)"
      insert Document { name: "a", reference: {id: "abc", link: "https://example.com", blob: "AAEC", label: "x"} }
      insert Document { name: "b", reference: {id: "\(id)", link: "", blob: "AAEC", label: "x"} }
      insert Document { name: "c", reference: {id: "\(id)", link: "https://example.com", blob: "not base64!", label: "x"} }
      insert Document { name: "d", reference: {id: "\(id.uuidString.lowercased())", link: "https://example.com/a?b=c", blob: "AAEC", label: "x"} }
      save
      """, path: "e", keepGoing: true)
    let lines = result.stderr.split(separator: "\n").map(String.init).filter { $0.hasPrefix("e:") }
    #expect(
      lines == [
        #"e:2:46: error: Reference.id is UUID in the Swift type; "abc" does not fit it"#,
        #"e:3:92: error: Reference.link is URL in the Swift type; "" does not fit it"#,
        #"e:4:121: error: Reference.blob is Data in the Swift type; "not base64!" does not fit it"#,
      ])
    let container = try ModelContainer(
      for: Document.self, configurations: ModelConfiguration(url: url))
    let read = try ModelContext(container).fetch(FetchDescriptor<Document>())
    #expect(
      read.map(\.reference) == [
        Reference(
          id: id, link: URL(string: "https://example.com/a?b=c")!, blob: Data([0, 1, 2]),
          label: "x")
      ])
  }
}
