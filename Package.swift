// swift-tools-version:6.1
import PackageDescription

// Targets and their import rules follow ARCHITECTURE.md: data flows
// sources -> ingest -> store -> calculator -> views, and no target imports one above it.
let package = Package(
    name: "walletwatch",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "walletwatch", targets: ["walletwatch"]),
    ],
    dependencies: [
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/LebJe/TOMLKit", from: "0.6.0"),
    ],
    targets: [
        .target(name: "WalletWatchCore"),
        .target(
            name: "WalletWatchStore",
            dependencies: ["WalletWatchCore", .product(name: "GRDB", package: "GRDB.swift")]
        ),
        .target(
            name: "WalletWatchEngine",
            dependencies: [
                "WalletWatchCore", "WalletWatchStore",
                .product(name: "Logging", package: "swift-log"),
                "TOMLKit",
            ]
        ),
        .executableTarget(
            name: "walletwatch",
            dependencies: [
                "WalletWatchCore", "WalletWatchStore", "WalletWatchEngine",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // Helpers shared by the test targets: temporary folders, running the built binary.
        .target(name: "TestSupport", dependencies: ["WalletWatchCore"], path: "Tests/TestSupport"),
        .testTarget(name: "WalletWatchCoreTests", dependencies: ["WalletWatchCore"]),
        .testTarget(
            name: "WalletWatchStoreTests",
            dependencies: ["WalletWatchStore", "TestSupport", .product(name: "GRDB", package: "GRDB.swift")]
        ),
        .testTarget(name: "WalletWatchEngineTests", dependencies: ["WalletWatchEngine", "WalletWatchStore", "TestSupport"]),
        // End-to-end: runs the built `walletwatch` binary the way a user would.
        .testTarget(name: "WalletWatchCLITests", dependencies: ["walletwatch", "WalletWatchCore", "TestSupport"]),
    ]
)
