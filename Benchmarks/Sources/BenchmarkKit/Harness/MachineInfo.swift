import Foundation

/// What the report says about the machine a run was made on.
package struct MachineInfo: Codable, Sendable {
  /// The CPU's model name.
  package var cpu: String
  /// Online cores.
  package var cores: Int
  /// Physical memory in bytes.
  package var memoryBytes: UInt64
  /// The operating system's version string.
  package var system: String

  /// The current machine.
  package static func current() -> MachineInfo {
    let cpuinfo = (try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8)) ?? ""
    let model =
      cpuinfo.split(separator: "\n").first { $0.hasPrefix("model name") }
      .flatMap { $0.split(separator: ":", maxSplits: 1).last }
      .map { $0.trimmingCharacters(in: .whitespaces) } ?? "unknown CPU"
    let info = ProcessInfo.processInfo
    return MachineInfo(
      cpu: model, cores: info.activeProcessorCount, memoryBytes: info.physicalMemory,
      system: info.operatingSystemVersionString)
  }

  /// One line for the report header.
  package var summary: String {
    let gib = Double(memoryBytes) / Double(1 << 30)
    return "\(cpu), \(cores) cores, \(ResultLine.fixed(gib, decimals: 1)) GiB, \(system)"
  }
}
