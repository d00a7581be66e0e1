// swift-tools-version: 6.1
// The host example built as an app builds it (issue 30 item 5): a package of its own that depends
// on Tally by path, so it sees only Tally's public API, exactly what an app outside sees. Its
// sources are Examples/HostApp (a link), the same files the main package's TallyHostExample target
// builds for the CLI tests, and the embedding guide's blocks (Examples/GuideBlocks). The main
// package builds both without package access, so CI's build already fails on a file that needs
// anything not public; this package is the same check made the way an app makes it.
import PackageDescription

let package = Package(
    name: "TallyExternalExample",
    platforms: [.macOS(.v15), .iOS(.v18)],
    dependencies: [.package(name: "Tally", path: "../..")],
    targets: [
        .executableTarget(name: "TallyHostExample", dependencies: [.product(name: "Tally", package: "Tally")]),
        // The embedding guide's blocks (Examples/GuideBlocks, a link), one file each with exactly
        // the imports the guide shows: with MemberImportVisibility a file sees only what its
        // own imports bring, so a block that compiles here needs nothing it does not show.
        .target(
            name: "TallyGuideBlocks",
            dependencies: [.product(name: "Tally", package: "Tally"), .product(name: "TallyInterchange", package: "Tally")],
            swiftSettings: [.enableUpcomingFeature("MemberImportVisibility")]
        ),
    ]
)
