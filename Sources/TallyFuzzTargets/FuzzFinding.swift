/// A fuzz input broke a property the target asserts (a round trip, an error of the wrong type,
/// two readers that disagree). The libFuzzer executables trap on it so the fuzzer saves the
/// input; the replay tests report it as a failure.
public struct FuzzFinding: Error, Sendable, CustomStringConvertible {
    /// What went wrong, for the crash report.
    public let message: String

    init(_ message: String) {
        self.message = message
    }

    public var description: String { message }
}

/// Throws a finding unless `condition` holds.
func require(_ condition: Bool, _ message: @autoclosure () -> String) throws(FuzzFinding) {
    guard condition else { throw FuzzFinding(message()) }
}
