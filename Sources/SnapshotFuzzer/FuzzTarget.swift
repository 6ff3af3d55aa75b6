import ModelGraphCore

/// The libFuzzer entry point: decodes the input as a snapshot file, or (when it starts with
/// the journal magic) as a journal replayed onto an empty store, as it is and with its
/// checksums repaired (so mutations reach the parsers behind the checksums).
///
/// Every input must give a ``StoreVersion`` or a ``SnapshotError`` (``JournalError`` for a
/// journal); a crash, a hang or a huge allocation is a bug. A decoded store is written again
/// and must decode again.
@_cdecl("LLVMFuzzerTestOneInput")
public func snapshotFuzzerTestOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  let bytes = Array(UnsafeBufferPointer(start: data, count: size))
  if bytes.starts(with: Array("MGJRNL".utf8)) {
    replayJournal(bytes)
    replayJournal(JournalChecksumRepair.repaired(bytes))
    return 0
  }
  decode(bytes)
  decode(ChecksumRepair.repaired(bytes))
  return 0
}

private func decode(_ bytes: [UInt8]) {
  guard let version = try? SnapshotReader.decode(bytes, path: "fuzz-input") else { return }
  rewrite(version)
}

private func replayJournal(_ bytes: [UInt8]) {
  bytes.withUnsafeBytes { raw in
    guard let journal = try? JournalReader(raw, path: "fuzz-journal"),
      let replayed = try? JournalReplay.replay(
        raw, journal: journal, onto: Store().version, path: "fuzz-journal",
        memoryBudget: fuzzMemoryBudget)
    else { return }
    rewrite(replayed.version)
  }
}

/// The table memory a fuzzed journal may ask for: well under the fuzzer's memory limits, so a
/// hostile row count is refused, not allocated.
private let fuzzMemoryBudget = 8 << 20

private func rewrite(_ version: StoreVersion) {
  do {
    _ = try SnapshotReader.decode(SnapshotWriter.encode(version), path: "fuzz-rewritten")
  } catch {
    preconditionFailure("a decoded store, written again, does not decode: \(error)")
  }
}
