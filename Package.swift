// swift-tools-version:6.2
import PackageDescription

// Targets and their import rules follow ARCHITECTURE.md: data flows
// sources -> ingest -> store -> calculator -> views, and no target imports one above it.
let argumentParser = Target.Dependency.product(name: "ArgumentParser", package: "swift-argument-parser")
let crypto = Target.Dependency.product(name: "Crypto", package: "swift-crypto")
let grdb = Target.Dependency.product(name: "GRDB", package: "GRDB.swift")
let hummingbird = Target.Dependency.product(name: "Hummingbird", package: "hummingbird")
let logging = Target.Dependency.product(name: "Logging", package: "swift-log")
let lifecycle = Target.Dependency.product(name: "ServiceLifecycle", package: "swift-service-lifecycle")
let prometheus = Target.Dependency.product(name: "Prometheus", package: "swift-prometheus")
let nioCore = Target.Dependency.product(name: "NIOCore", package: "swift-nio")
let nioPosix = Target.Dependency.product(name: "NIOPosix", package: "swift-nio")
let nioConcurrency = Target.Dependency.product(name: "NIOConcurrencyHelpers", package: "swift-nio")
let nioSSL = Target.Dependency.product(name: "NIOSSL", package: "swift-nio-ssl")
let x509 = Target.Dependency.product(name: "X509", package: "swift-certificates")

let package = Package(
    name: "walletwatch",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "walletwatch", targets: ["walletwatch"]),
        .executable(name: "walletwatch-sim", targets: ["walletwatch-sim"]),
        .executable(name: "walletwatch-bench", targets: ["walletwatch-bench"]),
    ],
    dependencies: [
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/LebJe/TOMLKit", from: "0.6.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/x-sheep/swift-property-based", from: "2.0.1"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
        .package(url: "https://github.com/hummingbird-project/swift-mustache", from: "2.1.1"),
        .package(url: "https://github.com/apple/swift-crypto", from: "4.5.2"),
        // Already in Hummingbird's graph; named here for the simulator's Electrum face (TCP and
        // TLS listeners, a self-signed certificate made at start) and the tests' Electrum client.
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.3"),
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.37.6"),
        .package(url: "https://github.com/apple/swift-certificates", from: "1.21.1"),
    ],
    targets: [
        // libcurl through a module map and a shim header (curl_easy_setopt is variadic).
        .systemLibrary(
            name: "CCurl",
            path: "Sources/CCurl",
            pkgConfig: "libcurl",
            providers: [.apt(["libcurl4-openssl-dev"])]
        ),
        // sqlite3_config (variadic) through a shim: tuning applied once, before the first connection.
        .systemLibrary(name: "CSQLiteTuning", path: "Sources/CSQLiteTuning", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
        // mallopt, which Swift's Glibc module leaves out: the allocator tuning of MemoryTuning.swift.
        .systemLibrary(name: "CMallocTuning", path: "Sources/CMallocTuning"),
        // libsecp256k1 for BIP32 public derivation and the taproot tweak (extrakeys module).
        .systemLibrary(
            name: "CSecp256k1",
            path: "Sources/CSecp256k1",
            pkgConfig: "libsecp256k1",
            providers: [.apt(["libsecp256k1-dev"])]
        ),
        // xxHash's reference library: XXH3, the digest that tells an unchanged barkd history (BodySpool).
        .systemLibrary(name: "CXXHash", path: "Sources/CXXHash", pkgConfig: "libxxhash", providers: [.apt(["libxxhash-dev"])]),
        // OpenSSL's libcrypto, for RIPEMD-160 only (HASH160), which swift-crypto does not have.
        .systemLibrary(name: "COpenSSLCrypto", path: "Sources/COpenSSLCrypto", pkgConfig: "libcrypto", providers: [.apt(["libssl-dev"])]),
        .target(name: "WalletWatchCore"),
        // Pure Bitcoin: addresses, scripts, BIP32 public derivation, descriptors. No I/O.
        .target(name: "WalletWatchBitcoin", dependencies: ["CSecp256k1", "COpenSSLCrypto", crypto]),
        // Crypto: the SHA-256 digest that proves a completed month unchanged (`walletwatch check`).
        .target(name: "WalletWatchStore", dependencies: ["WalletWatchCore", grdb, .product(name: "GRDBSQLite", package: "GRDB.swift"), "CSQLiteTuning", crypto]),
        // Crypto: the SHA-256 of a TLS server's certificate, which a stream pins or shows
        // (swift-crypto rather than OpenSSL's libcrypto: the other targets hash with it too).
        .target(name: "WalletWatchNet", dependencies: ["CCurl", logging, crypto]),
        // Bitcoin: an HD wallet's derived scripts and Esplora's scripthash keys. Crypto: the
        // HMAC-SHA256 that signs a webhook's body.
        .target(name: "WalletWatchSources", dependencies: ["WalletWatchCore", "WalletWatchBitcoin", "WalletWatchNet", crypto]),
        .target(
            name: "WalletWatchEngine",
            // CXXHash: XXH3 of a downloaded barkd history, to recognise an unchanged one.
            dependencies: ["WalletWatchCore", "WalletWatchBitcoin", "WalletWatchStore", "WalletWatchSources", "WalletWatchNet", logging, lifecycle, "TOMLKit",
                           "CXXHash"]
        ),
        // What views show: JSON documents, formats, charts, the page. Shared by the CLI and the web view.
        .target(name: "WalletWatchPresentation", dependencies: ["WalletWatchEngine", "WalletWatchCore", .product(name: "Mustache", package: "swift-mustache")]),
        // The views reach the data through the engine's use cases only: they do not depend on
        // the store, so a layer crossing does not compile. Crypto: the HMAC that turns the web
        // token into the browser's session cookie.
        .target(name: "WalletWatchWeb", dependencies: ["WalletWatchPresentation", "WalletWatchEngine", "WalletWatchCore", hummingbird, prometheus, logging, crypto]),
        // Bitcoin: HD scenarios derive their addresses, and transactions carry real scripts and txids.
        // NIO, NIOSSL, X509 and Crypto: the Electrum face's TCP and TLS listeners, its self-signed
        // certificate and the SHA-256 of statuses.
        .target(name: "WalletWatchSim", dependencies: ["WalletWatchCore", "WalletWatchBitcoin", hummingbird, lifecycle, logging, crypto,
                                                       nioCore, nioPosix, nioConcurrency, nioSSL, x509]),
        .executableTarget(
            name: "walletwatch",
            dependencies: ["WalletWatchPresentation", "WalletWatchEngine", "WalletWatchCore", "WalletWatchNet",
                           "WalletWatchWeb", "CMallocTuning", argumentParser, logging, lifecycle, hummingbird],
            // swiftc links an executable with --export-dynamic, which puts its 40,000 symbols
            // (the whole Swift runtime and Foundation, with --static-swift-stdlib) in the dynamic
            // symbol table: the loader then looks through them for every symbol the shared
            // libraries bind, and `dladdr` (which the Swift runtime calls as it starts, to find
            // its own path) scans them one by one. Nothing resolves a symbol of walletwatch at
            // run time, so they stay local: a command starts about 4 ms sooner (the README's
            // install paragraph gives the figures).
            linkerSettings: [.unsafeFlags(["-Xlinker", "--no-export-dynamic"])]
        ),
        .executableTarget(name: "walletwatch-sim", dependencies: ["WalletWatchSim", argumentParser, hummingbird]),
        // Measures the ingest's steps one at a time (decoding, writing) for scripts/bench.
        .executableTarget(name: "walletwatch-bench", dependencies: ["WalletWatchCore", "WalletWatchStore", "WalletWatchSources", "WalletWatchNet"]),

        // Helpers shared by the test targets: temporary folders, running the built binaries.
        // Hummingbird: the webhook receiver that notification tests send to. NIO and NIOSSL: a
        // raw Electrum client (TCP and TLS) for the simulator's Electrum face and ElectrumX.
        // ServiceLifecycle: the loopback server stops with a graceful shutdown (see LoopbackServer.swift).
        .target(name: "TestSupport", dependencies: ["WalletWatchCore", logging, hummingbird, lifecycle, nioCore, nioPosix, nioConcurrency, nioSSL],
                path: "Tests/TestSupport"),
        .testTarget(
            name: "WalletWatchCoreTests",
            dependencies: ["WalletWatchCore", "TestSupport", .product(name: "PropertyBased", package: "swift-property-based")]
        ),
        .testTarget(name: "WalletWatchStoreTests", dependencies: ["WalletWatchStore", "TestSupport", grdb]),
        // The BIPs' and Bitcoin Core's vector files are fixtures (Fixtures/PROVENANCE.md), read by path.
        // Oracles: Python programs that run Electrum (Debian's), bitcoinlib and ElectrumX on the SPV tests' inputs.
        .testTarget(name: "WalletWatchBitcoinTests", dependencies: ["WalletWatchBitcoin", "TestSupport"], exclude: ["Fixtures", "Oracles"]),
        .testTarget(name: "WalletWatchNetTests", dependencies: ["WalletWatchNet", "TestSupport", hummingbird, logging]),
        .testTarget(name: "WalletWatchSourcesTests", dependencies: ["WalletWatchSources", "WalletWatchNet", "WalletWatchSim", "TestSupport"]),
        // barkd's public OpenAPI document is a fixture: the simulator's responses are validated against it.
        // Crypto: the tests hash statuses and transactions themselves, not with the simulator's code.
        .testTarget(name: "WalletWatchSimTests", dependencies: ["WalletWatchSim", "walletwatch-sim", "WalletWatchBitcoin", "TestSupport", crypto],
                    exclude: ["Fixtures"]),
        // Data recorded by others (Esplora transactions, barkd's OpenAPI documents) is replayed
        // through the engine by a Hummingbird test server; the recordings are fixtures.
        .testTarget(
            name: "WalletWatchEngineTests",
            dependencies: ["WalletWatchEngine", "WalletWatchStore", "WalletWatchSources", "WalletWatchNet", "WalletWatchSim", "WalletWatchBitcoin",
                           "TestSupport", grdb, hummingbird, logging, .product(name: "PropertyBased", package: "swift-property-based")],
            exclude: ["Fixtures"]
        ),
        .testTarget(name: "WalletWatchPresentationTests", dependencies: ["WalletWatchPresentation", "WalletWatchEngine", "WalletWatchCore", "TestSupport"]),
        .testTarget(
            name: "WalletWatchWebTests",
            dependencies: ["WalletWatchWeb", "WalletWatchPresentation", "WalletWatchEngine", "WalletWatchStore", "WalletWatchNet", "WalletWatchSim", "TestSupport",
                           hummingbird, logging]
        ),
        // End-to-end: runs the built `walletwatch` binary against the simulator, as a user would.
        // Fixtures: data recorded by others (BIP-329 vectors, CryptoSavingsTracker's month
        // cycle, price API examples), replayed through the binary.
        // Hummingbird: a web site answering HTML where `doctor` expects an API.
        .testTarget(name: "WalletWatchCLITests", dependencies: ["walletwatch", "walletwatch-sim", "WalletWatchCore", "WalletWatchSim", "TestSupport",
                                                              hummingbird, logging],
                    exclude: ["Fixtures"]),
    ]
)
