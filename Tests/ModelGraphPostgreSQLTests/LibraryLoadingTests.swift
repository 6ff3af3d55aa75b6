import Foundation
import Testing

@testable import ModelGraphPostgreSQL

/// Runs without a server.
@Suite("libpq loading")
struct LibraryLoadingTests {
  @Test("a missing libpq is a libraryUnavailable error that names the Debian package")
  func missingLibrary() {
    guard case .failure(let error) = LibPQ.load(["libpq-that-does-not-exist.so.99"]) else {
      Issue.record("a library that does not exist was loaded")
      return
    }
    #expect(error.code == .libraryUnavailable)
    #expect(error.message.contains("libpq5"))
    #expect(error.message.contains("libpq-that-does-not-exist.so.99"))
  }

  @Test("a connection string libpq cannot parse is an invalidURL error, not a crash")
  func invalidURL() throws {
    // Needs libpq itself, not a server.
    guard case .success = LibPQ.shared else { return }
    let error = #expect(throws: PostgreSQLError.self) {
      _ = try PostgreSQLStore.open(url: "postgresql://host:notaport/db")
    }
    #expect(error?.code == .invalidURL)
  }
}
