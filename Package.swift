// swift-tools-version:6.0
// The agg package: a core library, a libcurl transport, a SQLite store, one module per
// source under Plugins/, and the `agg` executable that wires them together.
//
// Adapters are discovered: every folder in Plugins/ becomes a library target of the same
// name that depends on AggCore only, and `Tests/<Name>Tests`, when present, becomes its test
// target. Adding a source therefore needs no edit here.
import Foundation
import PackageDescription

let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()

/// The adapter modules: one per folder in Plugins/, sorted for a stable build graph.
let adapterNames: [String] = {
    let folder = packageRoot.appendingPathComponent("Plugins")
    let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
    return names.filter { name in
        var isDirectory: ObjCBool = false
        let path = folder.appendingPathComponent(name).path
        return !name.hasPrefix(".")
            && FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory)
            && isDirectory.boolValue
    }.sorted()
}()

func hasTests(_ name: String) -> Bool {
    FileManager.default.fileExists(atPath: packageRoot.appendingPathComponent("Tests/\(name)Tests").path)
}

let adapterTargets: [Target] = adapterNames.map { name in
    .target(name: name, dependencies: ["AggCore"], path: "Plugins/\(name)")
}

let adapterTestTargets: [Target] = adapterNames.filter(hasTests).map { name in
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
            dependencies: ["AggCore", "AggJSON", "AggTransport", "AggStore", "AggFixtures"]
        ),
        .executableTarget(
            name: "agg",
            dependencies: ["AggCLI", "AggCore"] + adapterNames.map { .target(name: $0) }
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
        .testTarget(
            name: "AggCLITests",
            dependencies: ["AggCLI", "AggCore", "AggJSON", "AggTestKit", "AggFixtures", "agg"]
        ),
    ] + adapterTargets + adapterTestTargets,
    swiftLanguageModes: [.v6]
)
