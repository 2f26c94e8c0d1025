// swift-tools-version:6.0
// The agg package: a core library, a libcurl transport, a SQLite store, one module per
// source under Plugins/, and the `agg` executable that wires them together.
import PackageDescription

/// The adapter modules, one per folder in Plugins/. Each depends on AggCore only; its tests,
/// in Tests/<Name>Tests, get the shared test kit. Adding a source adds its name here (the
/// scaffold does it), its folder, and one registration line in Sources/agg/Adapters.swift.
///
/// The list is explicit rather than read from the file system because SwiftPM caches the
/// evaluated manifest by its text: a discovered folder would go unseen until the cache expired.
let adapterNames = [
    "Bithumb",
    "Upbit",
    "Binance",
    "Coinbase",
    "ExchangeRate",
]

let adapterTargets: [Target] = adapterNames.map { name in
    .target(name: name, dependencies: ["AggCore"], path: "Plugins/\(name)")
}

let adapterTestTargets: [Target] = adapterNames.map { name in
    .testTarget(
        name: "\(name)Tests",
        dependencies: [.target(name: name), "AggCore", "AggJSON", "AggTestKit", "AggFixtures"],
        path: "Tests/\(name)Tests"
    )
}

let package = Package(
    name: "agg",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "agg", targets: ["agg"]),
        .library(name: "AggCore", targets: ["AggCore"]),
    ],
    targets: [
        .systemLibrary(
            name: "CCurl",
            path: "Sources/CCurl",
            pkgConfig: "libcurl",
            providers: [.apt(["libcurl4-openssl-dev"])]
        ),
        .systemLibrary(
            name: "CSQLite",
            path: "Sources/CSQLite",
            pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"])]
        ),
        .target(name: "AggJSON"),
        .target(name: "AggCore", dependencies: ["AggJSON"]),
        .target(name: "AggTransport", dependencies: ["AggCore", "CCurl"]),
        .target(name: "AggStore", dependencies: ["AggCore", "AggJSON", "CSQLite"]),
        .target(name: "AggFixtures", dependencies: ["AggCore", "AggJSON"]),
        .target(
            name: "AggCLI",
            dependencies: ["AggCore", "AggJSON", "AggStore", "AggFixtures"]
        ),
        .executableTarget(
            name: "agg",
            dependencies: ["AggCLI", "AggCore", "AggTransport"] + adapterNames.map { .target(name: $0) }
        ),
        .target(name: "AggTestKit", dependencies: ["AggCore", "AggJSON", "AggFixtures"]),
        .executableTarget(
            name: "agg-bench",
            dependencies: ["AggCore", "AggJSON", "AggTransport", "AggTestKit", "AggFixtures"]
                + adapterNames.map { .target(name: $0) }
        ),
        .testTarget(name: "AggJSONTests", dependencies: ["AggJSON"]),
        .testTarget(name: "AggCoreTests", dependencies: ["AggCore", "AggJSON"]),
        .testTarget(name: "AggTransportTests", dependencies: ["AggTransport", "AggCore", "AggTestKit"]),
        .testTarget(name: "AggStoreTests", dependencies: ["AggStore", "AggCore"]),
        .testTarget(name: "ScaffoldTests", path: "Tests/ScaffoldTests"),
        .testTarget(
            name: "AggCLITests",
            dependencies: ["AggCLI", "AggCore", "AggJSON", "AggStore", "AggTestKit", "AggFixtures", "agg"]
                + adapterNames.map { .target(name: $0) }
        ),
    ] + adapterTargets + adapterTestTargets,
    swiftLanguageModes: [.v6]
)
