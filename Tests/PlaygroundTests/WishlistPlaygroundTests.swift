import Foundation
import Testing

/// A temporary directory, removed when the value is released.
private final class Scratch {
  let url: URL

  init() throws {
    url = FileManager.default.temporaryDirectory.appendingPathComponent(
      "wishlist-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
  }

  deinit { try? FileManager.default.removeItem(at: url) }
}

@Suite("Wishlist playground")
struct WishlistPlaygroundTests {
  @Test("the first launch seeds and adds Northern Lights; later launches find it")
  func launches() throws {
    let scratch = try Scratch()
    let store = scratch.url.appendingPathComponent("trips.mgs").path
    let first = try PlaygroundRun.run("wishlist-playground", [store])
    #expect(first.status == 0, "stderr: \(first.stderr)")
    #expect(first.stderr.isEmpty)
    try ExpectedOutput.check(first.stdout, against: "wishlist-first-launch.txt")
    #expect(FileManager.default.fileExists(atPath: store))

    let second = try PlaygroundRun.run("wishlist-playground", [store])
    #expect(second.status == 0, "stderr: \(second.stderr)")
    try ExpectedOutput.check(second.stdout, against: "wishlist-second-launch.txt")

    let third = try PlaygroundRun.run("wishlist-playground", [store])
    #expect(third.status == 0, "stderr: \(third.stderr)")
    #expect(third.stdout == second.stdout, "a launch that finds the trip changes nothing")
  }

  @Test("without an argument the store is wishlist.mgs in the current directory")
  func defaultStore() throws {
    let scratch = try Scratch()
    let first = try PlaygroundRun.run("wishlist-playground", in: scratch.url)
    #expect(first.status == 0, "stderr: \(first.stderr)")
    #expect(
      FileManager.default.fileExists(
        atPath: scratch.url.appendingPathComponent("wishlist.mgs").path))
    let second = try PlaygroundRun.run("wishlist-playground", in: scratch.url)
    try ExpectedOutput.check(second.stdout, against: "wishlist-second-launch.txt")
  }

  @Test("a store path that is a directory fails with an error naming it, and exit status 1")
  func directoryAsStore() throws {
    let scratch = try Scratch()
    let run = try PlaygroundRun.run("wishlist-playground", [scratch.url.path])
    #expect(run.status == 1)
    #expect(run.stdout.isEmpty)
    #expect(run.stderr.hasPrefix("error: "))
    #expect(run.stderr.contains(scratch.url.path))
    #expect(run.stderr.contains("directory"))
  }

  @Test("a damaged store file is refused and left as it was")
  func damagedStore() throws {
    let scratch = try Scratch()
    let store = scratch.url.appendingPathComponent("trips.mgs")
    let junk = Data("not a snapshot file".utf8)
    try junk.write(to: store)
    let run = try PlaygroundRun.run("wishlist-playground", [store.path])
    #expect(run.status == 1)
    #expect(run.stdout.isEmpty)
    #expect(run.stderr.hasPrefix("error: "))
    #expect(try Data(contentsOf: store) == junk)
  }

  @Test("options and extra arguments get the usage line and exit status 2")
  func badArguments() throws {
    for arguments in [["--help"], ["a.mgs", "b.mgs"]] {
      let run = try PlaygroundRun.run("wishlist-playground", arguments)
      #expect(run.status == 2, "\(arguments)")
      #expect(run.stdout.isEmpty)
      #expect(run.stderr == "usage: wishlist-playground [store-file]\n")
    }
  }
}
