// swift-tools-version:6.0
import PackageDescription

let swiftSettings: [SwiftSetting] = [
  .swiftLanguageMode(.v6),
  .enableUpcomingFeature("ExistentialAny"),
  .enableUpcomingFeature("InternalImportsByDefault"),
]

/// The libraries take no unsafe flags (SwiftPM refuses them in a dependency added by
/// version): the engine's hot stored properties are marked `@exclusivity(unchecked)` instead.
let engineSettings = swiftSettings

let package = Package(
  name: "ModelGraph",
  platforms: [.macOS(.v14)],
  products: [
    .library(name: "ModelGraph", targets: ["ModelGraph"]),
    .library(name: "ModelGraphCore", targets: ["ModelGraphCore"]),
    .library(name: "ModelGraphPostgreSQL", targets: ["ModelGraphPostgreSQL"]),
    .executable(name: "modelgraph", targets: ["modelgraph"]),
    .executable(name: "trips-playground", targets: ["TripsPlayground"]),
    .executable(name: "wishlist-playground", targets: ["WishlistPlayground"]),
    .executable(name: "company-playground", targets: ["CompanyPlayground"]),
  ],
  targets: [
    // CRC-32C with the processor's CRC instructions, each function compiled for them by an
    // attribute (no flags); ModelGraphCore checks the processor and keeps its table code.
    .target(name: "CModelGraphCRC32C"),
    .target(
      name: "ModelGraphCore", dependencies: ["CModelGraphCRC32C"], swiftSettings: engineSettings),
    // Loads libpq with dlopen at run time: building needs no PostgreSQL headers or libraries.
    .target(
      name: "ModelGraphPostgreSQL", dependencies: ["ModelGraphCore"], swiftSettings: swiftSettings),
    .target(
      name: "ModelGraph", dependencies: ["ModelGraphCore", "ModelGraphPostgreSQL"],
      swiftSettings: engineSettings),
    .target(
      name: "ModelGraphScript", dependencies: ["ModelGraphCore", "ModelGraphPostgreSQL"],
      swiftSettings: swiftSettings),
    .executableTarget(
      name: "modelgraph", dependencies: ["ModelGraphScript"], swiftSettings: swiftSettings),
    // Started by the crash tests; not a product.
    .executableTarget(
      name: "SnapshotCrashWriter", dependencies: ["ModelGraphCore"], swiftSettings: swiftSettings),
    // libFuzzer target for the snapshot reader (see .ci/run); a plain build writes seeds.
    .executableTarget(
      name: "SnapshotFuzzer", dependencies: ["ModelGraphCore"], swiftSettings: swiftSettings),
    .executableTarget(
      name: "TripsPlayground", dependencies: ["ModelGraph"], path: "Playgrounds/Trips",
      swiftSettings: swiftSettings),
    .executableTarget(
      name: "WishlistPlayground", dependencies: ["ModelGraph"], path: "Playgrounds/Wishlist",
      swiftSettings: swiftSettings),
    .executableTarget(
      name: "CompanyPlayground", dependencies: ["ModelGraph"], path: "Playgrounds/Company",
      swiftSettings: swiftSettings),
    .testTarget(
      name: "ModelGraphCoreTests", dependencies: ["ModelGraphCore"], swiftSettings: swiftSettings),
    .testTarget(
      name: "ModelGraphTests", dependencies: ["ModelGraph", "ModelGraphCore"],
      swiftSettings: swiftSettings),
    // Runs against the server in MODELGRAPH_POSTGRESQL_URL; skipped without it.
    .testTarget(
      name: "ModelGraphPostgreSQLTests",
      dependencies: ["ModelGraph", "ModelGraphPostgreSQL", "ModelGraphScript"],
      swiftSettings: swiftSettings),
    .testTarget(
      name: "ModelGraphScriptTests",
      dependencies: ["ModelGraphScript", "ModelGraph", "ModelGraphCore"],
      exclude: ["Golden"], swiftSettings: swiftSettings),
    // Runs the playground executables and compares their output with Expected/.
    .testTarget(
      name: "PlaygroundTests",
      dependencies: ["TripsPlayground", "WishlistPlayground", "CompanyPlayground"],
      exclude: ["Expected"], swiftSettings: swiftSettings),
  ]
)
