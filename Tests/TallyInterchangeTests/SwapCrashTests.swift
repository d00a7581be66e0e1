import Foundation
import SystemPackage
@testable import Tally
@testable import TallyInterchange
import TallyJournal
import TallyModel
import TallyTestSupport
import Testing

/// Issue 29 item 3, as a class: every rename sequence of a ledger folder (the swap of `import
/// backup --replace` and of `reset`, and the recovery that finishes it) is crash-tested at
/// every step. A fault (EIO, or the process dying before or after the step) is injected at each
/// rename, sync, create, write and remove touching the ledger's parent folder; then the ledger
/// is "restarted" through one of the normal entry points, and must hold the old ledger or the
/// complete new one (never none, never an empty one), with the other folder named
/// (`<name>.replaced-N`) or removed; the command retried then succeeds.
@Suite("Swap crash recovery (issue 29 item 3)", .serialized)
struct SwapCrashTests {
    enum Operation: String, CaseIterable, CustomStringConvertible {
        case restore, reset
        var description: String { rawValue }
    }

    enum Which: Equatable { case old, new }

    /// The old ledger (one command after the backup), the backup, and what the new ledger of
    /// each operation holds.
    struct Fixture {
        let template: FilePath
        let backup: LedgerBackup
        let old: LedgerHistory
        let restored: LedgerHistory
        let reset: LedgerHistory
    }

    static let resetAt = Timestamp(millisecondsSinceEpoch: 1_772_600_000_000)

    static func fixture() async throws -> Fixture {
        let (template, history) = try await InterchangeLedgerTests.makeLedger()
        let backup = try LedgerBackup.make(from: template, protection: .key(BackupRestoreTests.backupKey))
        let ledger = try await Ledger.open(at: template, options: LedgerOptions(durability: .synchronous))
        let walletID = try #require(history.state.wallets.keys.sorted().first)
        let admin = try #require(history.state.household?.admin)
        try await ledger.execute(Command(
            commandID: CommandID(UUIDValue(high: 0xF1, low: 1)), actor: admin, recordedAt: Timestamp(millisecondsSinceEpoch: 1_772_500_000_000),
            action: .renameWallet(walletID: walletID, name: "Renamed after the backup")))
        try await ledger.close()
        let old = try LedgerHistory.load(at: template)
        let scratch = try BackupKeyTests.scratch()
        let resetCopy = try Self.copy(template, into: scratch)
        try await Self.run(.reset, at: resetCopy, backup: backup, fileSystem: PosixFileSystem())
        return Fixture(template: template, backup: backup, old: old, restored: history, reset: try LedgerHistory.load(at: resetCopy))
    }

    /// A fresh parent folder holding a copy of `template` named `L`; returns `<parent>/L`.
    static func copy(_ template: FilePath, into parent: FilePath) throws -> FilePath {
        let target = parent.appending("L")
        try FileManager.default.copyItem(atPath: template.string, toPath: target.string)
        return target
    }

    /// `tally import backup --replace` or `tally reset` of the ledger at `ledger`, every file
    /// operation through `fileSystem`.
    static func run(_ operation: Operation, at ledger: FilePath, backup: LedgerBackup, fileSystem: any FileSystem) async throws {
        switch operation {
        case .restore:
            var options = BackupKeyTests.options(.key(BackupRestoreTests.backupKey), replacing: true)
            options.fileSystem = fileSystem
            try await backup.restore(into: ledger, options: options)
        case .reset:
            _ = try await LedgerReset.reset(
                ledgerAt: ledger, keeping: .standard, on: try LocalDate(iso: "2026-03-04"), recordedAt: resetAt, fileSystem: fileSystem)
        }
    }

    /// Which ledger `path` holds: the old one, the operation's complete new one, or neither (nil).
    static func which(_ path: FilePath, _ fixture: Fixture, _ operation: Operation) -> Which? {
        guard let history = try? LedgerHistory.load(at: path) else { return nil }
        let new = operation == .restore ? fixture.restored : fixture.reset
        if history.lastSequenceNumber == fixture.old.lastSequenceNumber, history.state == fixture.old.state { return .old }
        if history.lastSequenceNumber == new.lastSequenceNumber, history.state == new.state { return .new }
        return nil
    }

    /// The normal entry points a "restarted" host or `tally` opens a path with; each must
    /// settle what the crash left.
    static let entryPoints: [(name: String, open: @Sendable (FilePath) async throws -> Void)] = [
        ("Ledger.open", { path in try await Ledger.open(at: path, options: LedgerOptions(durability: .none)).close() }),
        ("LedgerHistory.load", { path in _ = try LedgerHistory.load(at: path) }),
        ("LedgerReplay.replay", { path in _ = try LedgerReplay.replay(at: path) }),
        ("Ledger.currentStore", { path in _ = try Ledger.currentStore(at: path) }),
        ("LedgerAudit.audit", { path in _ = try LedgerAudit.audit(at: path) }),
        ("LedgerRepair.plan", { path in _ = try LedgerRepair.plan(at: path) }),
        ("Ledger.recoverInterruptedSwap", { path in _ = try Ledger.recoverInterruptedSwap(at: path) }),
    ]

    /// After a restart: the path holds the old ledger or the complete new one, the other is
    /// kept as `L.replaced-1` (or, for the old one in place, no replaced folder exists), and
    /// nothing of the swap is left beside it. Returns which.
    @discardableResult
    static func expectSettled(_ ledger: FilePath, _ fixture: Fixture, _ operation: Operation, _ context: String) -> Which? {
        let layout = LedgerDirectory(ledger)
        let which = Self.which(ledger, fixture, operation)
        #expect(which != nil, "\(context): the path holds neither the old ledger nor the complete new one")
        if which == .new {
            #expect(Self.which(layout.replaced(number: 1), fixture, operation) == .old, "\(context): the old ledger is kept as L.replaced-1")
        } else {
            #expect(!FileManager.default.fileExists(atPath: layout.replaced(number: 1).string), "\(context): nothing set aside while the old ledger is in place")
        }
        for leftover in [layout.restoring, layout.swapIntent, FilePath(layout.swapIntent.string + AtomicReplacement.temporarySuffix)] {
            #expect(!FileManager.default.fileExists(atPath: leftover.string), "\(context): \(leftover) was left")
        }
        return which
    }

    /// Retrying the operation with nothing failing succeeds, puts its new ledger in place and
    /// keeps the old one among the replaced folders.
    static func expectRetrySucceeds(_ ledger: FilePath, _ fixture: Fixture, _ operation: Operation, _ context: String) async {
        do {
            try await Self.run(operation, at: ledger, backup: fixture.backup, fileSystem: PosixFileSystem())
        } catch {
            Issue.record("\(context): the retried \(operation) failed: \(error)")
            return
        }
        #expect(Self.which(ledger, fixture, operation) == .new, "\(context): after the retry")
        let layout = LedgerDirectory(ledger)
        #expect((1...2).contains { Self.which(layout.replaced(number: $0), fixture, operation) == .old }, "\(context): the old ledger is kept")
    }

    /// The steps of an operation that nothing interrupts, on a fresh copy.
    static func steps(_ operation: Operation, _ fixture: Fixture) async throws -> [String] {
        let parent = try BackupKeyTests.scratch()
        defer { try? FileManager.default.removeItem(atPath: parent.string) }
        let ledger = try Self.copy(fixture.template, into: parent)
        let counting = StepFaultFileSystem(watching: parent)
        try await Self.run(operation, at: ledger, backup: fixture.backup, fileSystem: counting)
        return counting.steps
    }

    @Test("I29.3: a fault (EIO, crash before, crash after) at every step of the swap of import backup --replace and of reset leaves the old or the complete new ledger at the path once any entry point reopens it, the other kept as L.replaced-1; the retry succeeds", arguments: Operation.allCases)
    func everyStepOfTheSwap(operation: Operation) async throws {
        let fixture = try await Self.fixture()
        let steps = try await Self.steps(operation, fixture)
        let renames = steps.filter { $0.hasPrefix("rename") }
        #expect(renames.count == 3, "the record's rename and the swap's two: \(steps)")
        #expect(steps.filter { $0.hasPrefix("sync directory") }.count >= 5, "\(steps)")
        var outcomes: [Which: Int] = [:]
        for (index, step) in steps.enumerated() {
            for (faultIndex, fault) in StepFaultFileSystem.Fault.allCases.enumerated() {
                let parent = try BackupKeyTests.scratch()
                defer { try? FileManager.default.removeItem(atPath: parent.string) }
                let ledger = try Self.copy(fixture.template, into: parent)
                let faulty = StepFaultFileSystem(watching: parent, failing: index, with: fault)
                let entry = Self.entryPoints[(index * 3 + faultIndex) % Self.entryPoints.count]
                let context = "\(operation): \(fault) step \(index) (\(step)), reopened by \(entry.name)"
                let succeeded: Bool
                do {
                    try await Self.run(operation, at: ledger, backup: fixture.backup, fileSystem: faulty)
                    succeeded = true
                } catch {
                    succeeded = false
                }
                if fault != .ioError { #expect(faulty.hasCrashed, "\(context)") }
                do {
                    try await entry.open(ledger)
                } catch {
                    Issue.record("\(context): reopening failed: \(error)")
                    continue
                }
                let which = Self.expectSettled(ledger, fixture, operation, context)
                if succeeded { #expect(which == .new, "\(context): the operation reported success") }
                if let which { outcomes[which, default: 0] += 1 }
                await Self.expectRetrySucceeds(ledger, fixture, operation, context)
            }
        }
        #expect(outcomes[.old, default: 0] > 0 && outcomes[.new, default: 0] > 0, "both outcomes occur: \(outcomes)")
        try? FileManager.default.removeItem(atPath: fixture.template.string)
    }

    @Test("I29.3: the recovery that finishes a committed swap is crash-tested at every step too: whatever stops it, the next open finishes it (the new ledger in place, the old kept), and the retried operation succeeds", arguments: Operation.allCases)
    func everyStepOfTheRecovery(operation: Operation) async throws {
        let fixture = try await Self.fixture()
        let steps = try await Self.steps(operation, fixture)
        // The committed states a crash can leave: before the old ledger is set aside, between
        // the two renames (the state the issue found), after both.
        let crashPoints = steps.indices.filter { index in
            steps[index].hasPrefix("rename") && !steps[index].contains(".swap")
                || steps[index].hasPrefix("remove") && steps[index].hasSuffix(".swap")
        }
        #expect(crashPoints.count == 3, "\(steps)")
        for crashPoint in crashPoints {
            func crashedCopy() async throws -> (parent: FilePath, ledger: FilePath) {
                let parent = try BackupKeyTests.scratch()
                let ledger = try Self.copy(fixture.template, into: parent)
                let crashing = StepFaultFileSystem(watching: parent, failing: crashPoint, with: .crashBefore)
                // A crash before the record's removal comes after the work: the caller sees success.
                _ = try? await Self.run(operation, at: ledger, backup: fixture.backup, fileSystem: crashing)
                #expect(crashing.hasCrashed)
                #expect(FileManager.default.fileExists(atPath: LedgerDirectory(ledger).swapIntent.string), "the swap was committed")
                return (parent, ledger)
            }
            let counted = try await crashedCopy()
            let counting = StepFaultFileSystem(watching: counted.parent)
            let recovery = try Ledger.recoverInterruptedSwap(at: counted.ledger, fileSystem: counting)
            #expect(recovery.finishedOperation == operation.rawValue && recovery.replacedLedgerKeptAt == LedgerDirectory(counted.ledger).replaced(number: 1))
            Self.expectSettled(counted.ledger, fixture, operation, "\(operation): recovery after crash at \(steps[crashPoint])")
            try? FileManager.default.removeItem(atPath: counted.parent.string)
            for (index, step) in counting.steps.enumerated() {
                for fault in StepFaultFileSystem.Fault.allCases {
                    let (parent, ledger) = try await crashedCopy()
                    defer { try? FileManager.default.removeItem(atPath: parent.string) }
                    let context = "\(operation): crash before \(steps[crashPoint]), then recovery with \(fault) step \(index) (\(step))"
                    let faulty = StepFaultFileSystem(watching: parent, failing: index, with: fault)
                    _ = try? Ledger.recoverInterruptedSwap(at: ledger, fileSystem: faulty)
                    do {
                        _ = try LedgerHistory.load(at: ledger)
                    } catch {
                        Issue.record("\(context): reopening failed: \(error)")
                        continue
                    }
                    #expect(Self.expectSettled(ledger, fixture, operation, context) == .new, "\(context): a committed swap is always finished")
                    await Self.expectRetrySucceeds(ledger, fixture, operation, context)
                }
            }
        }
        try? FileManager.default.removeItem(atPath: fixture.template.string)
    }

    /// The folders as a crash between the two renames of a restore leaves them: no ledger at
    /// the path, the old one as `L.replaced-1`, the complete new one in `.L.restoring` (no record).
    static func crashedBetweenRenames() async throws -> (fixture: Fixture, parent: FilePath, ledger: FilePath, layout: LedgerDirectory) {
        let fixture = try await Self.fixture()
        let parent = try BackupKeyTests.scratch()
        let ledger = try Self.copy(fixture.template, into: parent)
        let layout = LedgerDirectory(ledger)
        try FileManager.default.moveItem(atPath: ledger.string, toPath: layout.replaced(number: 1).string)
        try await fixture.backup.restore(into: layout.restoring, options: BackupRestoreTests.unlocked)
        return (fixture, parent, ledger, layout)
    }

    @Test("I29.3: no ledger at the path and a .L.restoring no record proves complete (a crash before this version, as the issue found it): every opener refuses with swapInterrupted naming L.replaced-1 and .L.restoring; Ledger.open with createIfMissing and a person import create nothing; a restore retried starts afresh")
    func unprovenLeftoverIsRefusedByEveryOpener() async throws {
        let (fixture, parent, ledger, layout) = try await Self.crashedBetweenRenames()
        defer { try? FileManager.default.removeItem(atPath: parent.string) }
        for entry in Self.entryPoints {
            await #expect("\(entry.name)", performing: { try await entry.open(ledger) }, throws: { error in
                let text = "\(error)"
                return text.contains("swapInterrupted") && text.contains(layout.replaced(number: 1).string) && text.contains(layout.restoring.string)
            })
        }
        var options = LedgerOptions(durability: .none)
        options.createIfMissing = true
        await #expect(throws: LedgerError.self) { try await Ledger.open(at: ledger, options: options) }
        let export = try PersonalDataExport.make(for: try #require(fixture.old.state.household?.admin), from: fixture.old)
        await #expect(throws: InterchangeError.self) {
            try await PersonalDataImport.importing(export, into: ledger, householdID: HouseholdID(UUIDValue(high: 9, low: 9)), recordedAt: Self.resetAt)
        }
        #expect(!FileManager.default.fileExists(atPath: ledger.string), "nothing was created at the path")
        #expect(Self.which(layout.restoring, fixture, .restore) == .new, "the leftover was not touched")
        #expect(Self.which(layout.replaced(number: 1), fixture, .restore) == .old)
        // The restore, retried, starts afresh (it rebuilds the leftover).
        try await fixture.backup.restore(into: ledger, options: BackupRestoreTests.unlocked)
        #expect(Self.which(ledger, fixture, .restore) == .new)
        #expect(!FileManager.default.fileExists(atPath: layout.restoring.string))
        try? FileManager.default.removeItem(atPath: fixture.template.string)
    }

    @Test("I29.3: a record that is damaged, or that does not match the folders, is refused (swapInterrupted naming the folders) and changes nothing; a swap still running (its folder locked) is restoreInProgress and nothing is created")
    func damagedRecordAndRunningSwapAreRefused() async throws {
        let (fixture, parent, ledger, layout) = try await Self.crashedBetweenRenames()
        defer { try? FileManager.default.removeItem(atPath: parent.string) }
        var record = SwapIntent(operation: .restore, asideNumber: 1).encoded()
        #expect(SwapIntent.decode(record) == SwapIntent(operation: .restore, asideNumber: 1))
        record[record.count - 3] ^= 0x01
        #expect(SwapIntent.decode(record) == nil, "a flipped checksum digit")
        #expect(FileManager.default.createFile(atPath: layout.swapIntent.string, contents: Data(record)))
        #expect { try Ledger.recoverInterruptedSwap(at: ledger) } throws: { error in
            let text = "\(error)"
            return text.contains("swapInterrupted") && text.contains("not a swap record") && text.contains(layout.restoring.string)
                && text.contains(layout.replaced(number: 1).string)
        }
        // A sound record naming another aside folder than the one there.
        #expect(FileManager.default.createFile(atPath: layout.swapIntent.string, contents: Data(SwapIntent(operation: .reset, asideNumber: 2).encoded())))
        #expect { try Ledger.recoverInterruptedSwap(at: ledger) } throws: { error in
            "\(error)".contains("swapInterrupted") && "\(error)".contains(layout.replaced(number: 2).string)
        }
        #expect(!FileManager.default.fileExists(atPath: ledger.string))
        // The record as the swap wrote it, with the swap still running (its folder locked).
        #expect(FileManager.default.createFile(atPath: layout.swapIntent.string, contents: Data(SwapIntent(operation: .restore, asideNumber: 1).encoded())))
        let running = try PosixFileSystem().lockExclusively(at: layout.restoring)
        await #expect { try await Ledger.open(at: ledger, options: LedgerOptions(durability: .none)) } throws: { error in
            (error as? LedgerError)?.code == "restoreInProgress"
        }
        #expect(!FileManager.default.fileExists(atPath: ledger.string), "nothing was created")
        running.unlock()
        let recovery = try Ledger.recoverInterruptedSwap(at: ledger)
        #expect(recovery.finishedOperation == "restore" && recovery.replacedLedgerKeptAt == layout.replaced(number: 1))
        #expect(recovery.description.contains(layout.replaced(number: 1).string))
        Self.expectSettled(ledger, fixture, .restore, "finished once the swap no longer runs")
        try? FileManager.default.removeItem(atPath: fixture.template.string)
    }
}
