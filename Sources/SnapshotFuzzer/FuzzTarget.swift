import ModelGraphCore

/// The libFuzzer entry point: decodes the input as a snapshot file.
///
/// Every input must give a ``StoreVersion`` or a ``SnapshotError``; a crash, a hang or a huge
/// allocation is a bug. A decoded store is written again and must decode again.
@_cdecl("LLVMFuzzerTestOneInput")
public func snapshotFuzzerTestOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  let bytes = Array(UnsafeBufferPointer(start: data, count: size))
  guard let version = try? SnapshotReader.decode(bytes, path: "fuzz-input") else { return 0 }
  do {
    _ = try SnapshotReader.decode(SnapshotWriter.encode(version), path: "fuzz-rewritten")
  } catch {
    preconditionFailure("a decoded snapshot, written again, does not decode: \(error)")
  }
  return 0
}
