import SystemPackage
import Tally
import TallyJournal

extension Ledger {
    /// Opens a new ledger at `directory`, executes `commands` there as one durable batch (all or
    /// nothing) and closes it: how a reset and a person import record the facts they keep.
    /// Every file operation goes through `fileSystem`. `folderLockedByCaller`: the caller holds
    /// the lock on `directory` itself (a reset's restoring folder).
    /// - Throws: what opening, the batch or the close throws; the ledger is closed either way.
    static func create(
        at directory: FilePath, encryption: JournalEncryption?, executing commands: [Command],
        fileSystem: any FileSystem = PosixFileSystem(), folderLockedByCaller: Bool = false
    ) async throws(LedgerError) {
        var options = LedgerOptions(durability: .synchronous)
        options.encryption = encryption
        options.fileSystem = fileSystem
        options.commandsPerBatchMax = max(options.commandsPerBatchMax, commands.count)
        let ledger = try await Ledger.open(at: directory, options: options, folderLockedByCaller: folderLockedByCaller)
        do throws(LedgerError) {
            try await ledger.execute(commands)
        } catch {
            try? await ledger.close()
            throw error
        }
        try await ledger.close()
    }
}
