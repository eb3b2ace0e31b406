// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "FeedSim",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "feedsim", targets: ["feedsim"]),
        .library(name: "FeedReplay", targets: ["FeedReplay"]),
        .library(name: "FeedStore", targets: ["FeedStore"]),
    ],
    targets: [
        .systemLibrary(
            name: "FeedSimSQLite",
            pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"])]
        ),
        // glibc's mallopt, for the load tester (header only, nothing to link).
        .systemLibrary(name: "FeedSimLibc"),
        .target(name: "FeedModel"),
        .target(name: "FeedStore", dependencies: ["FeedModel", "FeedSimSQLite"]),
        .target(name: "FeedLayout"),
        .target(name: "FeedEngine", dependencies: ["FeedModel", "FeedLayout"]),
        .target(name: "FeedReplay", dependencies: ["FeedEngine", "FeedStore"]),
        .target(name: "FeedLoad", dependencies: ["FeedReplay", "FeedStore", "FeedSimSQLite", "FeedSimLibc"]),
        .target(name: "FeedReport", dependencies: ["FeedReplay", "FeedLoad", "FeedEngine", "FeedLayout", "FeedModel", "FeedStore"]),
        .executableTarget(
            name: "feedsim",
            dependencies: ["FeedModel", "FeedStore", "FeedLayout", "FeedEngine", "FeedReplay", "FeedLoad", "FeedReport"]
        ),
        // Locates the package's files and the real data outside it, for the tests only.
        .target(name: "FeedSimTestSupport", path: "Tests/Support"),
        .testTarget(name: "FeedModelTests", dependencies: ["FeedModel"]),
        .testTarget(name: "FeedStoreTests", dependencies: ["FeedStore", "FeedModel", "FeedSimTestSupport"]),
        .testTarget(name: "FeedLayoutTests", dependencies: ["FeedLayout", "FeedModel"]),
        .testTarget(name: "FeedEngineTests", dependencies: ["FeedEngine", "FeedStore", "FeedSimTestSupport"]),
        .testTarget(name: "FeedReplayTests", dependencies: ["FeedReplay", "FeedSimTestSupport"]),
        .testTarget(name: "FeedLoadTests", dependencies: ["FeedLoad", "FeedSimTestSupport"]),
        .testTarget(name: "FeedReportTests", dependencies: ["FeedReport", "FeedSimTestSupport"]),
        .testTarget(name: "feedsimTests", dependencies: ["feedsim", "FeedStore", "FeedSimTestSupport"]),
    ],
    swiftLanguageModes: [.v6]
)
