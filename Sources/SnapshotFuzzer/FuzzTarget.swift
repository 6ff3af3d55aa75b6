import ModelGraphCore

/// The libFuzzer entry point: decodes the input as a snapshot file, as it is and with its
/// checksums repaired (so mutations reach the parsers behind the checksums).
///
/// Every input must give a ``StoreVersion`` or a ``SnapshotError``; a crash, a hang or a huge
/// allocation is a bug. A decoded store is written again and must decode again.
@_cdecl("LLVMFuzzerTestOneInput")
public func snapshotFuzzerTestOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  let bytes = Array(UnsafeBufferPointer(start: data, count: size))
  decode(bytes)
  decode(ChecksumRepair.repaired(bytes))
  return 0
}

private func decode(_ bytes: [UInt8]) {
  guard let version = try? SnapshotReader.decode(bytes, path: "fuzz-input") else { return }
  do {
    _ = try SnapshotReader.decode(SnapshotWriter.encode(version), path: "fuzz-rewritten")
  } catch {
    preconditionFailure("a decoded snapshot, written again, does not decode: \(error)")
  }
}
