// The fuzzer build (`-Xswiftc -DSNAPSHOT_FUZZER --sanitize=fuzzer`) takes `main` from libFuzzer;
// a plain build gets this one, which writes the seed corpus or replays inputs.
#if !SNAPSHOT_FUZZER
  import Foundation

  /// `SnapshotFuzzer --write-seeds <directory>` writes the seed corpus;
  /// `SnapshotFuzzer <file>...` runs each file through the fuzz target (to replay a crash).
  @main
  enum SnapshotFuzzerMain {
    static func main() throws {
      let arguments = Array(CommandLine.arguments.dropFirst())
      if arguments.first == "--write-seeds", arguments.count == 2 {
        let directory = URL(fileURLWithPath: arguments[1], isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        for (name, bytes) in try SeedCorpus.files() {
          try Data(bytes).write(to: directory.appendingPathComponent(name))
        }
        return
      }
      guard !arguments.isEmpty else {
        print("usage: SnapshotFuzzer --write-seeds <directory> | SnapshotFuzzer <file>...")
        return
      }
      for path in arguments {
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        _ = bytes.withUnsafeBufferPointer {
          snapshotFuzzerTestOneInput($0.baseAddress ?? UnsafePointer(bitPattern: 1)!, $0.count)
        }
        print("\(path): no crash")
      }
    }
  }
#endif
