// swift-tools-version: 6.1
// The benchmark suite lives in its own package so that `swift build` and `swift test` of the
// main package never compile the benchmark framework. Run: `swift package benchmark` here.
import PackageDescription

let package = Package(
    name: "TallyBenchmarks",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "Tally", path: ".."),
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
    ],
    targets: [
        .executableTarget(
            name: "JournalBenchmarks",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "TallyJournal", package: "Tally"),
            ],
            path: "Benchmarks/JournalBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
    ]
)
