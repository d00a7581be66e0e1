import Foundation

/// Files of the repository that tests read: the example household, fixtures, documentation.
/// Found from this source file's path (`Tests/TallyTestSupport/`), so they are read in place.
public enum RepositoryFiles {
    /// The repository's root folder.
    public static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The file or folder at `relativePath` from the root, e.g. `"Docs/Commands.md"`.
    public static func url(_ relativePath: String) -> URL {
        root.appendingPathComponent(relativePath)
    }

    /// `Tests/Fixtures/<name>`: checked-in fixtures (see its README).
    public static func fixture(_ name: String) -> URL {
        url("Tests/Fixtures/\(name)")
    }

    /// `Sources/TallyCLI/Demo/household.jsonl`: the example household's recorded commands (the demo `tally demo` embeds).
    public static let householdExample = url("Sources/TallyCLI/Demo/household.jsonl")
}
