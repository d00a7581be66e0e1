// swift-tools-version: 6.1
// The benchmark suite lives in its own package so that `swift build` and `swift test` of the
// main package never compile the benchmark framework or GRDB.
// Run: `swift package benchmark` (ordo-one) or `swift run -c release tally-compare` here.
import PackageDescription

let package = Package(
    name: "TallyBenchmarks",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "Tally", path: ".."),
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
        .package(url: "https://github.com/groue/GRDB.swift", exact: "7.10.0"),
        // The same AES-GCM the engine seals personal texts with, for the per-text micro-benchmark.
        .package(url: "https://github.com/apple/swift-crypto", from: "3.12.3"),
        // The sync benchmark's peer writes straight into PostgreSQL with the server's client.
        .package(url: "https://github.com/vapor/postgres-nio", exact: "1.33.2"),
        .package(url: "https://github.com/swift-server/async-http-client", exact: "1.37.0"),
    ],
    targets: [
        // Deterministic synthetic household histories, shared by every benchmark and the comparison.
        .target(
            name: "TallyWorkload",
            dependencies: [
                .product(name: "TallyModel", package: "Tally"),
                .product(name: "TallyJournal", package: "Tally"),
            ],
            path: "Sources/TallyWorkload"
        ),
        // Clocks, latency percentiles, process memory and disk usage for the executables below.
        .target(name: "BenchmarkSupport", path: "Sources/BenchmarkSupport"),
        .executableTarget(
            name: "JournalBenchmarks",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "TallyJournal", package: "Tally"),
                "TallyWorkload",
            ],
            path: "Benchmarks/JournalBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        .executableTarget(
            name: "CodecBenchmarks",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "TallyModel", package: "Tally"),
                .product(name: "Crypto", package: "swift-crypto"),
                "TallyWorkload",
            ],
            path: "Benchmarks/CodecBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        // Tally vs SQLite (GRDB) vs JSON Lines on the same generated events, one table per run.
        .executableTarget(
            name: "tally-compare",
            dependencies: [
                "TallyWorkload",
                "BenchmarkSupport",
                .product(name: "Tally", package: "Tally"),
                .product(name: "TallyModel", package: "Tally"),
                .product(name: "TallyJournal", package: "Tally"),
                .product(name: "GRDB", package: "GRDB.swift"),
            ],
            path: "Sources/tally-compare"
        ),
        // Rows per second inserted and read with and without the encrypting SQLite VFS
        // (Docs/Security.md, "Encrypted read side").
        .executableTarget(
            name: "sqlite-encryption-bench",
            dependencies: [
                .product(name: "TallySQLiteEncryption", package: "Tally"),
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            path: "Sources/sqlite-encryption-bench"
        ),
        // Cost against history (issue 14) and queries, reports and observation (issue 15): Tally
        // vs a GRDB app (transactions + balances tables) executing the same commands at 10k, 100k
        // and 1M events, one child process per measurement (Docs/Performance.md).
        .executableTarget(
            name: "tally-scale",
            dependencies: [
                "BenchmarkSupport",
                "TallyWorkload",
                .product(name: "Tally", package: "Tally"),
                .product(name: "TallyModel", package: "Tally"),
                .product(name: "TallyJournal", package: "Tally"),
                .product(name: "TallyProjections", package: "Tally"),
                .product(name: "TallyStore", package: "Tally"),
                .product(name: "GRDB", package: "GRDB.swift"),
            ],
            path: "Sources/tally-scale"
        ),
        // Sync (issue 32): households of two devices through one `tally serve` on loopback and
        // PostgreSQL, against the same commands written straight into PostgreSQL by one client
        // (Docs/Performance.md, "Sync").
        .executableTarget(
            name: "tally-sync-bench",
            dependencies: [
                "BenchmarkSupport",
                .product(name: "Tally", package: "Tally"),
                .product(name: "TallyModel", package: "Tally"),
                .product(name: "TallyServer", package: "Tally"),
                .product(name: "TallySync", package: "Tally"),
                .product(name: "TallySyncHTTP", package: "Tally"),
                .product(name: "TallySyncServer", package: "Tally"),
                .product(name: "TallySyncHTTPServer", package: "Tally"),
                .product(name: "TallySyncWire", package: "Tally"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
            ],
            path: "Sources/tally-sync-bench"
        ),
        // One journal phase in isolation, for callgrind (Docs/Performance.md).
        .executableTarget(
            name: "tally-profile",
            dependencies: [
                "TallyWorkload", "BenchmarkSupport",
                .product(name: "TallyModel", package: "Tally"),
                .product(name: "TallyJournal", package: "Tally"),
                .product(name: "Tally", package: "Tally"),
                .product(name: "TallyProjections", package: "Tally"),
            ],
            path: "Sources/tally-profile"
        ),
    ],
    swiftLanguageModes: [.v6]
)
