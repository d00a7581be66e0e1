/// The sizes a device and its server agree on (Docs/Sync.md, "HTTP"): a device asks for and
/// sends at most these, a server answers and accepts at most these. Written once, for both.
public enum SyncBounds {
    /// The most frames one page of the history holds: what a pull answers at most, and what a
    /// server's cache catches up by at once.
    public static let framesPerPageMax = 256
    /// The most bytes of pushed bodies one push carries (one body per command, with a newline
    /// each over HTTP): `tally serve` refuses a larger request, and a device cuts its outbox into
    /// pushes below it.
    public static let pushBytesMax = 8 << 20
    /// The most keys one read of a household's keys returns.
    public static let keysPerPageMax = 1_000
    /// The longest a pull waits for new frames (a long poll), in milliseconds.
    public static let waitMillisecondsMax = 30_000
}

/// The codes of refusals a device acts on, written once for the server that sends them and the
/// device that reads them (over HTTP they arrive as `SyncError.requestRefused`'s code).
public enum SyncRefusalCode {
    /// A share of keys under another household secret than the household's (Docs/Sync.md,
    /// "Keys between devices").
    public static let householdSecretMismatch = "householdSecretMismatch"
}
