// swift-tools-version:6.0
import PackageDescription

/// Settings shared by every Swift target: Swift 6 mode and the same upcoming features as the
/// root package.
let swiftSettings: [SwiftSetting] = [
  .swiftLanguageMode(.v6),
  .enableUpcomingFeature("ExistentialAny"),
  .enableUpcomingFeature("InternalImportsByDefault"),
]

let package = Package(
  name: "ModelGraphBenchmarks",
  platforms: [.macOS(.v14)],
  products: [
    .executable(name: "modelgraph-benchmark", targets: ["modelgraph-benchmark"]),
    .executable(name: "modelgraph-benchmark-jemalloc", targets: ["modelgraph-benchmark-jemalloc"]),
  ],
  dependencies: [
    .package(name: "ModelGraph", path: "..")
  ],
  targets: [
    // Debian's libsqlite3-dev: the SQLite peer.
    .systemLibrary(name: "CSQLite", providers: [.apt(["libsqlite3-dev"])]),
    // glibc's mallinfo2, for W11's heap figure (part of libc6-dev, no package to add).
    .systemLibrary(name: "CMallocInfo"),
    // Counts heap allocations (malloc and its siblings, replaced for the whole process): linked
    // only into modelgraph-benchmark, for the allocations-per-operation figures and gate.
    .target(name: "CAllocationCounter"),
    // Debian's libjemalloc-dev: linked only into modelgraph-benchmark-jemalloc.
    .systemLibrary(name: "CJemalloc", providers: [.apt(["libjemalloc-dev"])]),
    // The harness, the workload, and the SQLite and plain-array engines.
    .target(
      name: "BenchmarkKit", dependencies: ["CSQLite", "CMallocInfo"], swiftSettings: swiftSettings),
    // The ModelGraph engine, through the public typed API; the probes that drive sessions
    // and stores directly import ModelGraphCore.
    .target(
      name: "ModelGraphEngine",
      dependencies: [
        "BenchmarkKit", .product(name: "ModelGraph", package: "ModelGraph"),
        .product(name: "ModelGraphCore", package: "ModelGraph"),
      ],
      swiftSettings: swiftSettings),
    .executableTarget(
      name: "modelgraph-benchmark",
      dependencies: ["BenchmarkKit", "ModelGraphEngine", "CAllocationCounter"],
      swiftSettings: swiftSettings),
    // Save-to-visible delay between two containers on one PostgreSQL database.
    .executableTarget(
      name: "postgresql-delay-probe",
      dependencies: [.product(name: "ModelGraph", package: "ModelGraph")],
      swiftSettings: swiftSettings),
    // What unsaved changes cost a fetch on a PostgreSQL store keeping only fetched objects.
    .executableTarget(
      name: "postgresql-fetched-probe",
      dependencies: [.product(name: "ModelGraph", package: "ModelGraph")],
      swiftSettings: swiftSettings),
    .executableTarget(
      name: "observation-probe",
      dependencies: [.product(name: "ModelGraph", package: "ModelGraph")],
      swiftSettings: swiftSettings),
    // `==` on a Codable attribute: the engine's byte comparison against Foundation's.
    .executableTarget(
      name: "codable-equality-probe",
      dependencies: [.product(name: "ModelGraph", package: "ModelGraph")],
      swiftSettings: swiftSettings),
    .executableTarget(
      name: "journal-probe",
      dependencies: [.product(name: "ModelGraphCore", package: "ModelGraph")],
      swiftSettings: swiftSettings),
    .executableTarget(
      name: "modelgraph-benchmark-jemalloc",
      dependencies: ["BenchmarkKit", "ModelGraphEngine", "CJemalloc"],
      swiftSettings: swiftSettings),
  ]
)
