import Foundation
import SystemPackage
import Tally
import TallyJournal
import TallyStore
import TallyTestSupport
import Testing

@Suite("Encrypted ledger")
struct EncryptedLedgerTests {
    @Test("a ledger with encryption at rest replays with its key; without it open is a typed error, audit still verifies the chain")
    func encryptedLedger() async throws {
        let directory = try TemporaryDirectory("tally-encrypted")
        defer { directory.remove() }
        let path = directory.appending("ledger")
        var options = LedgerOptions(durability: .none)
        options.encryption = try JournalEncryption(keyID: 1, key: [UInt8](repeating: 7, count: 32))
        var scenario = Scenario()
        let ledger = try await Ledger.open(at: path, options: options)
        for command in scenario.setup() { try await ledger.execute(command) }
        try await ledger.execute(scenario.command(.recordTransaction(transactionID: scenario.ids.next(), entry: scenario.expense(4_250, shared: true))))
        let live = try await ledger.readModels.canonicalJSON().text
        try await ledger.close()

        let journal = try Data(contentsOf: URL(fileURLWithPath: path.appending(LedgerDirectory.journalName).appending("00000000000000000001.segment").string))
        #expect(journal.range(of: Data("Joint".utf8)) == nil, "wallet names must not be on disk in clear")
        for file in LedgerStore.files(at: LedgerDirectory(path).readSideStore.string) where FileManager.default.fileExists(atPath: file) {
            let bytes = try Data(contentsOf: URL(fileURLWithPath: file))
            #expect(bytes.range(of: Data("Joint".utf8)) == nil, "the store, with the checkpoint, is sealed too")
        }
        #expect(LedgerDirectory(path).checkpointSequenceNumber() == nil, "the checkpoint cannot be read without the key")

        await #expect { try await Ledger.open(at: path, options: LedgerOptions(durability: .none)) } throws: { error in
            (error as? LedgerError)?.code == "encryptionKeyMissing"
        }
        let reopened = try await Ledger.open(at: path, options: options)
        let checkpointSequence = try #require(LedgerDirectory(path).checkpointSequenceNumber(encryption: options.encryption))
        #expect(reopened.openReport.checkpointSequenceNumber == checkpointSequence, "the sealed checkpoint opens with the key")
        #expect(try await reopened.readModels.canonicalJSON().text == live)
        try await reopened.close()
        #expect(try LedgerReplay.replay(at: path, encryption: options.encryption).readModels.canonicalJSON().text == live)
        let withoutKey = try LedgerAudit.audit(at: path)
        #expect(withoutKey.journal.problems.isEmpty)
        #expect(withoutKey.journal.frameCount > 0 && withoutKey.journal.encryptedFramesNotDecrypted == withoutKey.journal.frameCount, "every frame is sealed")
        #expect(try LedgerAudit.audit(at: path, encryption: options.encryption).isClean)
    }
}
