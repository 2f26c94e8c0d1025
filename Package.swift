// swift-tools-version:6.0
// The agg package: a core library, a libcurl transport, a SQLite store, a PostgreSQL history
// store (libpq) for recorders that share a database, an HTTP server (a strict HTTP/1.1 reader of its own, zlib for gzip) for
// `agg serve`, one module per venue
// under Plugins/, the standard venue list (AggVenues), and the `agg` executable that wires them
// together.
//
// Linux only: the code imports FoundationEssentials and Glibc, and the transport and the store
// link the system's libcurl, SQLite and libpq, so no Apple platform is declared.
import PackageDescription

/// The adapter modules, one per folder in Plugins/. Each depends on AggCore only; its own tests,
/// if any (`adapterTestNames`), in Tests/<Name>Tests, get the shared test kit and the libcurl
/// transport (to run the adapter over real HTTP against the loopback fixture server). Adding a
/// venue adds its name here (the scaffold does it), its folder, and one registration line in
/// Sources/AggVenues/StandardVenues.swift.
///
/// The list is explicit rather than read from the file system because SwiftPM caches the
/// evaluated manifest by its text: a discovered folder would go unseen until the cache expired.
let adapterNames = [
    "Bithumb",
    "Upbit",
    "Binance",
    "Coinbase",
    "ExchangeRate",
    "Frankfurter",
    "Dunamu",
    "Coinone",
    "Korbit",
    "Kraken",
    "OKX",
]

/// Adapters that share code beyond AggCore: Upbit and Bithumb (its v1 API) decode the same
/// Upbit-shaped answers with AggUpbitShape.
let adapterExtraDependencies: [String: [Target.Dependency]] = [
    "Upbit": ["AggUpbitShape"],
    "Bithumb": ["AggUpbitShape"],
]

let adapterTargets: [Target] = adapterNames.map { name in
    .target(name: name, dependencies: ["AggCore"] + (adapterExtraDependencies[name] ?? []), path: "Plugins/\(name)")
}

/// The venues with Swift tests of their own, in Tests/<Name>Tests: the quirks their expectations
/// (Fixtures/<id>/expectations.json, run for every venue by AggVenuesTests) do not state. A new
/// venue starts with expectations only; one that needs Swift tests adds its folder and its name here.
let adapterTestNames = [
    "Bithumb",
    "Upbit",
    "Binance",
    "Coinbase",
    "ExchangeRate",
    "Frankfurter",
    "Dunamu",
    "Coinone",
    "Korbit",
    "Kraken",
    "OKX",
]

let adapterTestTargets: [Target] = adapterTestNames.map { name in
    .testTarget(
        name: "\(name)Tests",
        dependencies: [.target(name: name), "AggCore", "AggJSON", "AggTestKit", "AggFixtures", "AggTransport"],
        path: "Tests/\(name)Tests"
    )
}

let package = Package(
    name: "agg",
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
            providers: [.apt(["libsqlite3-dev"])]
        ),
        // glibc's mallopt, for the agg executable's malloc tuning.
        .systemLibrary(name: "CMalloc", path: "Sources/CMalloc"),
        .systemLibrary(
            name: "CPostgres",
            path: "Sources/CPostgres",
            pkgConfig: "libpq",
            providers: [.apt(["libpq-dev"])]
        ),
        .systemLibrary(
            name: "CZlib",
            path: "Sources/CZlib",
            pkgConfig: "zlib",
            providers: [.apt(["zlib1g-dev"])]
        ),
        // wslay: RFC 6455 framing for the WebSocket client (no .pc file: linked by name).
        .systemLibrary(name: "CWslay", path: "Sources/CWslay", providers: [.apt(["libwslay-dev"])]),
        // OpenSSL's libcrypto (libcurl links it already): SHA-1 for the WebSocket handshake,
        // HMAC-SHA256 for the signature of alert webhooks.
        .systemLibrary(
            name: "CCrypto",
            path: "Sources/CCrypto",
            pkgConfig: "libcrypto",
            providers: [.apt(["libssl-dev"])]
        ),
        .target(name: "AggJSON"),
        // The HTTP server of `agg serve`: a strict HTTP/1.1 reader of its own (GET and HEAD, no
        // bodies) on POSIX sockets, one thread per connection, behind a small router; zlib gzips.
        .target(name: "AggServer", dependencies: ["CZlib", "AggJSON"]),
        .target(name: "AggCore", dependencies: ["AggJSON"]),
        // HTTP through libcurl, and WebSocket (libcurl connects, wslay frames) on one thread each.
        .target(name: "AggTransport", dependencies: ["AggCore", "CCurl", "CWslay", "CCrypto"]),
        .target(name: "AggStore", dependencies: ["AggCore", "AggJSON", "CSQLite"]),
        // The PostgreSQL history store, for recorders that share one database (libpq).
        .target(name: "AggPostgres", dependencies: ["AggCore", "AggJSON", "CPostgres"]),
        .target(name: "AggFixtures", dependencies: ["AggCore", "AggJSON"]),
        // Venues described by data files (Plugins/DataVenues/*.json and the user's venues/).
        .target(name: "AggDataVenues", dependencies: ["AggCore", "AggJSON"]),
        // The decoding of the Upbit-shaped quotation APIs (Upbit, and Bithumb's v1).
        .target(name: "AggUpbitShape", dependencies: ["AggCore", "AggJSON"]),
        // The one command grammar every front end builds requests from: argument parsing, the
        // settings (flag, config key, environment variable, default) and help.
        .target(name: "AggOptions", dependencies: ["AggCore", "AggJSON", "AggPostgres"]),
        // The use cases, no terminal: each feature's command spec, request, service, report and
        // rendering to bytes; alerts, search, the stores.
        .target(
            name: "AggServices",
            dependencies: ["AggOptions", "AggCore", "AggJSON", "AggStore", "AggFixtures", "AggPostgres", "CCrypto"]
        ),
        // `agg serve` over AggServer: the same requests built from query parameters, the poller,
        // the board page.
        .target(
            name: "AggServe",
            dependencies: ["AggOptions", "AggServices", "AggCore", "AggJSON", "AggServer", "CMalloc"],
            // The board page's files: Tools/embed-board.sh embeds them (BoardAssets.swift).
            exclude: ["Board"]
        ),
        // The command line: the commands, terminal output (spinner, watch screen), completion.
        .target(
            name: "AggCLI",
            dependencies: [
                "AggOptions", "AggServices", "AggServe", "AggCore", "AggJSON", "AggStore", "AggDataVenues",
                "AggServer",
            ]
        ),
        .target(name: "AggVenues", dependencies: ["AggCore"] + adapterNames.map { .target(name: $0) }),
        .executableTarget(
            name: "agg",
            dependencies: [
                "AggCLI", "AggServices", "AggCore", "AggTransport", "AggVenues", "AggDataVenues", "CMalloc",
            ]),
        .target(name: "AggTestKit", dependencies: ["AggCore", "AggJSON", "AggFixtures", "AggDataVenues", "CCrypto"]),
        .executableTarget(
            name: "agg-bench",
            dependencies: [
                "AggCore", "AggJSON", "AggTransport", "AggTestKit", "AggFixtures", "AggVenues", "Bithumb",
                "AggOptions", "AggServices", "AggStore", "AggDataVenues", "CMalloc",
            ]
        ),
        .testTarget(name: "AggJSONTests", dependencies: ["AggJSON", "AggTestKit"]),
        .testTarget(name: "AggCoreTests", dependencies: ["AggCore", "AggJSON", "AggTestKit"]),
        .testTarget(name: "AggTransportTests", dependencies: ["AggTransport", "AggCore", "AggTestKit"]),
        // The WebSocket client against the loopback WebSocket server of the test kit.
        .testTarget(name: "AggWebSocketTests", dependencies: ["AggTransport", "AggCore", "AggTestKit"]),
        .testTarget(name: "AggStoreTests", dependencies: ["AggStore", "AggCore", "AggTestKit"]),
        // Against the PostgreSQL that Tools/test starts (AGG_TEST_POSTGRES_URL); the three-recorder
        // test starts and kills `agg` itself.
        .testTarget(name: "AggPostgresTests", dependencies: ["AggPostgres", "AggCore", "AggTestKit", "agg"]),
        .testTarget(name: "AggServerTests", dependencies: ["AggServer", "AggTestKit"]),
        .testTarget(name: "ScaffoldTests", path: "Tests/ScaffoldTests"),
        // The README stays the front door and docs/ links hold (Tests/DocsTests).
        .testTarget(name: "DocsTests", dependencies: ["AggCLI", "AggOptions"]),
        .testTarget(
            name: "AggDataVenuesTests",
            dependencies: ["AggDataVenues", "AggCore", "AggJSON", "AggTestKit", "AggFixtures", "AggTransport"]
        ),
        .testTarget(
            name: "AggVenuesTests",
            dependencies: ["AggVenues", "AggCore", "AggJSON", "AggTestKit", "AggFixtures", "AggTransport"]
        ),
        .testTarget(
            name: "AggCLITests",
            dependencies: [
                "AggCLI", "AggServe", "AggServices", "AggOptions", "AggCore", "AggJSON", "AggStore", "AggTestKit",
                "AggFixtures", "AggVenues", "AggDataVenues", "AggPostgres", "AggTransport", "agg", "AggServer",
            ]
        ),
    ] + adapterTargets + adapterTestTargets,
    swiftLanguageModes: [.v6]
)
