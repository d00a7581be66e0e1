import Foundation
import Tally

/// An open ledger and, for one made from a commands file, the temporary directory it lives in.
struct OpenedLedger {
    let ledger: Ledger
    /// Removed by ``discard()``; `nil` for a ledger directory given by the user.
    let temporaryDirectory: String?
    /// What the ledger holds, as the first line of the output says it.
    let summary: String

    /// Closes the ledger (reporting a failure) and removes a temporary ledger.
    func close() async throws(HostExampleError) {
        defer { removeTemporaryDirectory() }
        try await HostExampleError.wrapping { () async throws(LedgerError) in try await ledger.close() }
    }

    /// Closes the ledger ignoring a failure (the example is failing already) and removes a
    /// temporary ledger.
    func discard() async {
        try? await ledger.close()
        removeTemporaryDirectory()
    }

    private func removeTemporaryDirectory() {
        if let temporaryDirectory { try? FileManager.default.removeItem(atPath: temporaryDirectory) }
    }
}
