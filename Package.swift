// swift-tools-version: 6.1
import CompilerPluginSupport
import PackageDescription

let package = Package(
    name: "Tally",
    platforms: [.macOS(.v15), .iOS(.v18)],
    products: [
        .library(name: "TallyJournal", targets: ["TallyJournal"]),
        .library(name: "TallyModel", targets: ["TallyModel"]),
        .library(name: "TallyProjections", targets: ["TallyProjections"]),
        .library(name: "Tally", targets: ["Tally"]),
        .library(name: "TallyInterchange", targets: ["TallyInterchange"]),
        .library(name: "TallySQLiteEncryption", targets: ["TallySQLiteEncryption"]),
        .library(name: "TallyStore", targets: ["TallyStore"]),
        .library(name: "TallySyncWire", targets: ["TallySyncWire"]),
        .library(name: "TallyServer", targets: ["TallyServer"]),
        .library(name: "TallySync", targets: ["TallySync"]),
        .library(name: "TallySyncHTTP", targets: ["TallySyncHTTP"]),
        .library(name: "TallySyncServer", targets: ["TallySyncServer"]),
        .library(name: "TallySyncHTTPServer", targets: ["TallySyncHTTPServer"]),
        .executable(name: "tally", targets: ["TallyCLI"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-system", from: "1.8.1"),
        .package(url: "https://github.com/apple/swift-crypto", from: "3.12.3"),
        .package(url: "https://github.com/x-sheep/swift-property-based", from: "2.0.1"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/groue/GRDB.swift", exact: "7.10.0"),
        .package(url: "https://github.com/apple/swift-collections", from: "1.6.0"),
        .package(url: "https://github.com/swiftlang/swift-syntax", from: "603.0.1"),
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
        .package(url: "https://github.com/vapor/postgres-nio", exact: "1.33.2"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", exact: "2.28.1"),
        .package(url: "https://github.com/swift-server/async-http-client", exact: "1.37.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
    ],
    targets: [
        // liblz4 from the operating system (Debian: liblz4-dev); lz4's sources are not vendored.
        .systemLibrary(
            name: "CLZ4",
            pkgConfig: "liblz4",
            providers: [.apt(["liblz4-dev"]), .brew(["lz4"])]
        ),
        // CRC32C (Castagnoli): SSE4.2 / ARMv8 CRC instructions with a table fallback.
        .target(name: "CTallyCRC32C"),
        .target(
            name: "TallyJournal",
            dependencies: [
                "CLZ4",
                "CTallyCRC32C",
                .product(name: "SystemPackage", package: "swift-system"),
                .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
        // The binary layouts' one description (Docs/Architecture.md, "Binary layouts"): a record's
        // stored properties, from which @WireFields / @StateFields write its decoder and encoder.
        // Compile-time only: nothing of swift-syntax is linked into a Tally library.
        .macro(
            name: "TallyMacros",
            dependencies: [
                .product(name: "SwiftSyntaxMacros", package: "swift-syntax"),
                .product(name: "SwiftCompilerPlugin", package: "swift-syntax"),
            ]
        ),
        .target(name: "TallyModel", dependencies: ["TallyMacros", .product(name: "HashTreeCollections", package: "swift-collections")]),
        // A page-encrypting SQLite VFS (AES-GCM from swift-crypto) for the on-disk read side.
        // Depends on no other Tally target, so any store target can use it.
        .target(
            name: "TallySQLiteEncryption",
            dependencies: [
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
                .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
        // Persistent hash maps (HashTreeCollections): what grows with history is kept in
        // structure-sharing maps, so a copy (a batch's scratch state, a checkpoint's snapshot,
        // a host's read models) costs O(1) and a change O(log n), not a copy of the history.
        .target(
            name: "TallyProjections",
            dependencies: ["TallyModel", "TallyMacros", .product(name: "HashTreeCollections", package: "swift-collections")]
        ),
        // The read side on disk: an SQLite store (GRDB) of the read models, rebuildable from
        // the journal (system SQLite: Debian libsqlite3-dev).
        .target(
            name: "TallyStore",
            dependencies: [
                "TallyModel", "TallyProjections", "TallySQLiteEncryption",
                .product(name: "GRDB", package: "GRDB.swift"), .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
        // The engine: commands, validation, the ledger actor, live read models, checkpoints,
        // replay and audit, observation, the JSON command schema.
        .target(
            name: "Tally",
            dependencies: [
                "TallyJournal", "TallyModel", "TallyProjections", "TallyStore", "TallyMacros",
                .product(name: "SystemPackage", package: "swift-system"),
                .product(name: "HashTreeCollections", package: "swift-collections"),
                .product(name: "DequeModule", package: "swift-collections"),
                .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
        // CSV import/export, JSON backup/restore, ledger (hledger) journal export.
        .target(
            name: "TallyInterchange",
            dependencies: [
                "Tally", "TallyProjections", "TallyModel", "TallyJournal",
                .product(name: "SystemPackage", package: "swift-system"),
                // AES-GCM, and scrypt (_CryptoExtras) for backups sealed with a passphrase.
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
            ]
        ),
        // What a device and its server exchange (Docs/Sync.md): frames, pushed commands and their
        // outcomes, sealed keys, devices and invitations, the sizes both sides keep. Foundation
        // only: an app's device and the server both build on it.
        .target(name: "TallySyncWire"),
        // The sync server's history in PostgreSQL (Docs/Sync.md, "Built: the server's history"):
        // opaque frames and command outcomes per household, appends serialised by a row lock,
        // devices with hashed tokens. Engine-agnostic: it depends on no Tally target but the wire.
        .target(
            name: "TallyServer",
            dependencies: [
                "TallySyncWire",
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
        // A device's side of sync (Docs/Sync.md): the outbox, push and pull, keys between
        // devices. What an app embeds: no server, no PostgreSQL client.
        .target(
            name: "TallySync",
            dependencies: [
                "Tally", "TallyJournal", "TallyModel", "TallyProjections", "TallyStore", "TallySyncWire",
                .product(name: "SystemPackage", package: "swift-system"),
            ]
        ),
        // The server's engine over its history (Docs/Sync.md, "Built: the server's engine"): a
        // keyless ledger per household validating what devices push.
        .target(
            name: "TallySyncServer",
            dependencies: [
                "Tally", "TallyJournal", "TallyModel", "TallyServer", "TallySync", "TallySyncWire",
                .product(name: "SystemPackage", package: "swift-system"),
            ]
        ),
        // A device's transport to `tally serve` over HTTP (AsyncHTTPClient) and the JSON bodies
        // both sides read and write (Docs/Sync.md, "HTTP").
        .target(
            name: "TallySyncHTTP",
            dependencies: [
                "TallySync", "TallySyncWire", "TallyJournal",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
            ]
        ),
        // `tally serve`'s routes (Hummingbird) over the server's engine.
        .target(
            name: "TallySyncHTTPServer",
            dependencies: [
                "Tally", "TallySync", "TallySyncHTTP", "TallySyncServer", "TallyServer", "TallySyncWire", "TallyJournal",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // The `tally` command-line tool. The demo household is compiled into the binary, so
        // `tally demo` runs from any directory.
        .executableTarget(
            name: "TallyCLI",
            dependencies: [
                "Tally", "TallyInterchange", "TallyProjections", "TallyModel", "TallyJournal", "TallyStore",
                "TallySyncWire", "TallyServer", "TallySync", "TallySyncHTTP", "TallySyncServer", "TallySyncHTTPServer",  // tally serve, tally sync
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "SystemPackage", package: "swift-system"),
                .product(name: "Crypto", package: "swift-crypto"),  // SHA-256 of an attached file

            ],
            resources: [.embedInCode("Demo/household.jsonl"), .embedInCode("Demo/sample.jsonl")]
        ),
        // A host program that embeds the engine through observation and queries (built and run
        // by the CLI tests). Without package access it sees what an app outside the package sees:
        // Tally's public API only, through one import (issue 30).
        .executableTarget(
            name: "TallyHostExample",
            dependencies: ["Tally"],
            path: "Examples/HostApp",
            packageAccess: false
        ),
        // The embedding guide's swift blocks (Sources/Tally/Tally.docc/Embedding.md), one file
        // each with the block's own imports: public API only (no package access), and with
        // MemberImportVisibility a file sees only what its own imports bring, so a block that
        // compiles here needs nothing the guide does not show. Examples/External builds the same
        // files in a package of its own.
        .target(
            name: "TallyGuideBlocks",
            dependencies: ["Tally", "TallyInterchange"],
            path: "Examples/GuideBlocks",
            packageAccess: false,
            swiftSettings: [.enableUpcomingFeature("MemberImportVisibility")]
        ),

        // Test support: the fault-injecting file system, the scenario household and shared helpers.
        .target(
            name: "TallyTestSupport",
            dependencies: [
                "Tally", "TallyJournal", "TallyModel", "TallyProjections",
                .product(name: "SystemPackage", package: "swift-system"),
            ],
            path: "Tests/TallyTestSupport"
        ),
        // A tiny writer process that the kill -9 test starts and kills.
        .executableTarget(
            name: "JournalCrashWriter",
            dependencies: ["TallyJournal", .product(name: "SystemPackage", package: "swift-system")],
            path: "Tests/JournalCrashWriter"
        ),
        // A writer process that the encrypted SQLite kill -9 test starts and kills.
        .executableTarget(
            name: "SQLiteCrashWriter",
            dependencies: [
                "TallySQLiteEncryption",
                .product(name: "GRDB", package: "GRDB.swift"), .product(name: "Crypto", package: "swift-crypto"),
            ],
            path: "Tests/SQLiteCrashWriter"
        ),
        // Fuzzing (Docs/Fuzzing.md): the checks every fuzz target runs on one input, shared by
        // the libFuzzer executables and the corpus replay tests.
        .target(
            name: "TallyFuzzTargets",
            dependencies: [
                "Tally", "TallyInterchange", "TallyModel", "TallyJournal", "TallyTestSupport", "CLibFuzzer",
                .product(name: "SystemPackage", package: "swift-system"),
            ]
        ),
        // The declaration of libFuzzer's LLVMFuzzerRunDriver (linked only by -sanitize=fuzzer).
        .target(name: "CLibFuzzer", path: "Fuzz/CLibFuzzer"),
        .executableTarget(name: "fuzz-journal-frames", dependencies: ["TallyFuzzTargets"], path: "Fuzz/Targets/JournalFrames"),
        .executableTarget(name: "fuzz-event-codec", dependencies: ["TallyFuzzTargets"], path: "Fuzz/Targets/EventCodec"),
        .executableTarget(name: "fuzz-command-parser", dependencies: ["TallyFuzzTargets"], path: "Fuzz/Targets/CommandParser"),
        .executableTarget(name: "fuzz-csv-import", dependencies: ["TallyFuzzTargets"], path: "Fuzz/Targets/CSVImport"),

        .testTarget(
            name: "TallyJournalTests",
            dependencies: [
                "TallyJournal", "TallyTestSupport", "CTallyCRC32C", "JournalCrashWriter",
                .product(name: "SystemPackage", package: "swift-system"),
            ]
        ),
        .testTarget(
            name: "TallyTests",
            dependencies: [
                "Tally", "TallyInterchange", "TallyGuideBlocks", "TallyTestSupport", "TallyModel", "TallyJournal", "TallyProjections", "TallyStore", "TallySQLiteEncryption",
                .product(name: "SystemPackage", package: "swift-system"),
                .product(name: "GRDB", package: "GRDB.swift"), .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
        .testTarget(
            name: "TallyModelTests",
            dependencies: [
                "TallyModel", "TallyTestSupport",
                .product(name: "PropertyBased", package: "swift-property-based"),
            ]
        ),
        .testTarget(
            name: "TallyProjectionsTests",
            dependencies: [
                "TallyProjections", "TallyModel", "TallyTestSupport",
                .product(name: "PropertyBased", package: "swift-property-based"),
                .product(name: "HashTreeCollections", package: "swift-collections"),
            ]
        ),
        .testTarget(
            name: "TallyInterchangeTests",
            dependencies: [
                "TallyInterchange", "Tally", "TallyProjections", "TallyModel", "TallyStore", "TallyTestSupport", "TallyJournal",
                .product(name: "SystemPackage", package: "swift-system"),
            ],
            exclude: ["Snapshots"]
        ),
        .testTarget(
            name: "TallySQLiteEncryptionTests",
            dependencies: [
                "TallySQLiteEncryption", "SQLiteCrashWriter",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
                .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
        .testTarget(
            name: "TallyFuzzTests",
            dependencies: [
                "TallyFuzzTargets", "TallyJournal", "TallyTestSupport",
                .product(name: "SystemPackage", package: "swift-system"),
            ]
        ),
        // The server's history and sync through it (TallySync). Needs a PostgreSQL server:
        // `Scripts/postgres run` starts a throwaway one and sets TALLY_TEST_POSTGRES_SOCKET.
        .testTarget(
            name: "TallyServerTests",
            dependencies: [
                "TallySyncWire", "TallyServer", "TallySync", "TallySyncServer", "TallySyncHTTP", "TallySyncHTTPServer", "Tally", "TallyModel",
                "TallyJournal", "TallyInterchange", "TallyTestSupport",
                .product(name: "SystemPackage", package: "swift-system"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Crypto", package: "swift-crypto"),
                // Raw requests to tally serve's routes, which HTTPSyncTransport never sends.
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
            ]
        ),
        .testTarget(
            name: "TallyCLITests",
            dependencies: [
                "TallyCLI", "TallyHostExample", "TallyTestSupport", "TallyJournal",
                .product(name: "SystemPackage", package: "swift-system"),
            ],
            exclude: ["Snapshots"]
        ),
    ],
    swiftLanguageModes: [.v6]
)

// The fuzzing build (Docs/Fuzzing.md): `Fuzz/run` sets TALLY_FUZZING, and Tally's own Swift
// targets are compiled with libFuzzer's coverage instrumentation and AddressSanitizer, the fuzz
// executables linked with both (by lld, which ships with Swift). Set here per target rather than
// by -Xswiftc, so the dependencies and the TallyMacros compiler plugin are built exactly as in
// any release build: a fuzzing build in the scratch directory of a release build (CI's last
// step) compiles only Tally's targets again.
if Context.environment["TALLY_FUZZING"] != nil {
    for target in package.targets where [.regular, .executable].contains(target.type)
        && (target.name.hasPrefix("Tally") || target.name.hasPrefix("fuzz-")) {
        target.swiftSettings = (target.swiftSettings ?? []) + [.unsafeFlags(["-sanitize=fuzzer,address"]), .define("TALLY_FUZZING")]
        if target.name.hasPrefix("fuzz-") {
            target.linkerSettings = (target.linkerSettings ?? []) + [.unsafeFlags(["-sanitize=fuzzer,address", "-use-ld=lld"])]
        }
    }
}
