// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "FeedSim",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "feedsim", targets: ["feedsim"]),
        .library(name: "FeedReplay", targets: ["FeedReplay"]),
        .library(name: "FeedStore", targets: ["FeedStore"]),
        .library(name: "FeedPostgres", targets: ["FeedPostgres"]),
    ],
    targets: [
        .systemLibrary(
            name: "FeedSimSQLite",
            pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"])]
        ),
        .systemLibrary(name: "FeedSimPQ", pkgConfig: "libpq", providers: [.apt(["libpq-dev"])]),
        .systemLibrary(name: "FeedSimCurl", pkgConfig: "libcurl", providers: [.apt(["libcurl4-openssl-dev"])]),
        .systemLibrary(name: "FeedSimHTTPD", pkgConfig: "libmicrohttpd", providers: [.apt(["libmicrohttpd-dev"])]),
        // glibc's mallopt, for the load tester (header only, nothing to link).
        .systemLibrary(name: "FeedSimLibc"),
        .target(name: "FeedModel"),
        // Generates Swift holding every file of Schema/ and Seeds/ (the EmbedResources plugin's tool).
        .executableTarget(name: "EmbedResourcesTool"),
        .plugin(name: "EmbedResources", capability: .buildTool(), dependencies: ["EmbedResourcesTool"]),
        // The package's data files, carried in the binary (Schema/ and Seeds/ stay the source of
        // truth), and what reads them: presets and the item generator. Pure: no I/O beyond an
        // override directory the executable names.
        .target(name: "FeedResources", dependencies: ["FeedModel"], plugins: ["EmbedResources"]),
        .target(name: "FeedStore", dependencies: ["FeedModel", "FeedResources", "FeedSimSQLite"]),
        .target(name: "FeedHTTP", dependencies: ["FeedModel", "FeedSimCurl", "FeedSimHTTPD"]),
        .target(name: "FeedPostgres", dependencies: ["FeedModel", "FeedSimPQ"]),
        .target(name: "FeedLayout"),
        .target(name: "FeedEngine", dependencies: ["FeedModel", "FeedLayout"]),
        .target(name: "FeedReplay", dependencies: ["FeedEngine", "FeedModel", "FeedResources"]),
        .target(name: "FeedLoad", dependencies: ["FeedReplay", "FeedModel", "FeedResources", "FeedSimLibc"]),
        // HTML reports, the Perfetto export, `feedsim compare` and `sweep` (one self-contained page each).
        .target(
            name: "FeedReport",
            dependencies: ["FeedReplay", "FeedLoad", "FeedEngine", "FeedLayout", "FeedModel", "FeedResources"]),
        // The fuzz driver of every trace reader and item importer (`feedsim fuzz`, and a round in the tests).
        .target(name: "FeedFuzz", dependencies: ["FeedModel", "FeedResources", "FeedReplay", "FeedStore"]),
        // `feedsim bench`: each benchmark beside its raw baseline, measured in the same run.
        .target(
            name: "FeedSimBenchmarks",
            dependencies: [
                "FeedModel", "FeedResources", "FeedStore", "FeedLayout", "FeedEngine", "FeedReplay", "FeedLoad",
                "FeedReport", "FeedHTTP", "FeedSimSQLite", "FeedPostgres", "FeedSimPQ",
            ]),
        .executableTarget(
            name: "feedsim",
            dependencies: [
                "FeedModel", "FeedResources", "FeedStore", "FeedLayout", "FeedEngine", "FeedReplay", "FeedLoad",
                "FeedSimBenchmarks", "FeedFuzz", "FeedHTTP", "FeedPostgres", "FeedReport",
            ]
        ),
        // Locates the package's files and the real data outside it, for the tests only.
        .target(name: "FeedSimTestSupport", path: "Tests/Support"),
        .testTarget(name: "FeedModelTests", dependencies: ["FeedModel"]),
        .testTarget(name: "FeedResourcesTests", dependencies: ["FeedResources", "FeedModel", "FeedSimTestSupport"]),
        .testTarget(
            name: "FeedStoreTests", dependencies: ["FeedStore", "FeedModel", "FeedResources", "FeedSimTestSupport"]),
        .testTarget(
            name: "BackendContractTests",
            dependencies: [
                "FeedModel", "FeedResources", "FeedStore", "FeedPostgres", "FeedReplay", "FeedLoad", "FeedEngine",
                "FeedSimTestSupport",
            ]
        ),
        .testTarget(name: "FeedLayoutTests", dependencies: ["FeedLayout", "FeedModel"]),
        .testTarget(
            name: "FeedEngineTests", dependencies: ["FeedEngine", "FeedStore", "FeedResources", "FeedSimTestSupport"]),
        .testTarget(
            name: "FeedReplayTests", dependencies: ["FeedReplay", "FeedStore", "FeedResources", "FeedSimTestSupport"]),
        .testTarget(
            name: "FeedLoadTests", dependencies: ["FeedLoad", "FeedStore", "FeedResources", "FeedSimTestSupport"]),
        .testTarget(
            name: "FeedSimBenchmarksTests",
            dependencies: ["FeedSimBenchmarks", "FeedLoad", "FeedReplay", "FeedEngine", "FeedModel", "FeedSimTestSupport"]),
        .testTarget(
            name: "FeedFuzzTests",
            dependencies: ["FeedFuzz", "FeedResources", "FeedReplay", "FeedStore", "FeedModel", "FeedSimTestSupport"]),
        .testTarget(
            name: "FeedReportTests", dependencies: ["FeedReport", "FeedStore", "FeedResources", "FeedSimTestSupport"]),
        .testTarget(name: "FeedHTTPTests", dependencies: ["FeedHTTP", "FeedModel", "FeedStore", "FeedSimTestSupport"]),
        .testTarget(
            name: "feedsimTests",
            dependencies: [
                "feedsim", "FeedStore", "FeedPostgres", "FeedLayout", "FeedReplay", "FeedHTTP", "FeedSimBenchmarks",
                "FeedSimTestSupport",
            ]),
    ],
    swiftLanguageModes: [.v6]
)
