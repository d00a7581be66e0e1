import Foundation
import SystemPackage
import Tally
import TallyInterchange
import TallyModel
import TallyTestSupport
import Testing

@Suite("CSV detection")
struct CSVDetectionTests {
    @Test("the delimiter is detected from , ; and tab", arguments: [
        ("date,amount\n2026-01-01,1\n", Character(",")), ("date;amount\n2026-01-01;1,50\n", ";"), ("date\tamount\n2026-01-01\t1\n", "\t"),
        ("date;note;amount\n2026-01-01;\"a;b\";1\n", ";"),
    ])
    func delimiterDetection(text: String, expected: Character) throws {
        #expect(try CSVTable.parse(text).delimiter == expected)
    }

    @Test("date formats are detected across rows", arguments: [
        (["2026-01-31", "2026-02-01"], CSVDateFormat.iso), (["31.01.2026", "01.02.2026"], .dayMonthYear),
        (["01/31/2026", "02/01/2026"], .monthDayYear), (["13/01/26", "01/02/26"], .dayMonthYear),
    ])
    func dateDetection(values: [String], expected: CSVDateFormat) throws {
        #expect(try CSVDateFormat.detect(values) == expected)
    }

    @Test("dates that read both as D/M/Y and M/D/Y are reported as ambiguous")
    func ambiguousDates() {
        #expect(throws: InterchangeError.self) { try CSVDateFormat.detect(["01/02/2026", "03/04/2026"]) }
        do { _ = try CSVDateFormat.detect(["01/02/2026"]) } catch { #expect(error.code == "csvDateAmbiguous") }
    }
}

@Suite("Interchange with a ledger", .serialized)
struct InterchangeLedgerTests {
    static let household = RepositoryFiles.householdExample

    static func makeLedger() async throws -> (FilePath, LedgerHistory) {
        let directory = FilePath(FileManager.default.temporaryDirectory.appendingPathComponent("tally-ix-\(UUID().uuidString)").path)
        let ledger = try await Ledger.open(at: directory, options: LedgerOptions(durability: .none))
        for command in try CommandParser.parse(lines: String(contentsOf: household, encoding: .utf8)) { try await ledger.execute(command) }
        try await ledger.close()
        return (directory, try LedgerHistory.load(at: directory))
    }

    @Test("backup then restore into an empty ledger gives identical replayed read models")
    func backupRestoreRoundTrip() async throws {
        let (directory, history) = try await Self.makeLedger()
        let backup = try LedgerBackup.make(from: directory, protection: .key(BackupRestoreTests.backupKey))
        #expect(backup.formatVersion == LedgerBackup.currentFormatVersion)
        #expect(backup.personalKeyHolders?.count == 3, "Alice, Bob and Carol each have a key (P2)")
        #expect(backup.personalKeys == nil, "never in clear")
        let decoded = try LedgerBackup.decode(try backup.encoded())
        let target = FilePath(directory.string + "-restored")
        try await decoded.restore(into: target, options: BackupRestoreTests.unlocked)
        let restored = try LedgerHistory.load(at: target)
        #expect(try restored.readModels.canonicalJSON().serialized() == history.readModels.canonicalJSON().serialized())
        #expect(restored.state == history.state, "names and notes restore readable with the backed-up keys")
        let reopened = try await Ledger.open(at: target, options: LedgerOptions(durability: .none))
        #expect(reopened.openReport.unreadablePersonalTexts == 0)
        try await reopened.close()
        await #expect(throws: InterchangeError.self) { try await decoded.restore(into: target, options: BackupRestoreTests.unlocked) }
    }

    @Test("importing the same CSV twice inserts nothing the second time")
    func importTwiceInsertsNothing() async throws {
        let (directory, history) = try await Self.makeLedger()
        let csv = "Datum;Betrag;Text;Kategorie\n03.02.2026;-12,50;Bakery;Groceries\n15.02.2026;-40;Books;Groceries\n15.02.2026;-40;Books;Groceries\n"
        var importer = CSVImporter(walletName: "Bob cash", recordedAt: Timestamp(millisecondsSinceEpoch: 1_771_400_000_000))
        importer.mapping = try CSVImporter.Mapping(parsing: "date=Datum,amount=Betrag,note=Text,category=Kategorie")
        let plan = try importer.plan(csv, state: history.state)
        #expect((plan.inserted, plan.skipped, plan.failed) == (2, 1, 0))
        #expect(plan.dateFormat == .dayMonthYear)
        #expect(try importer.plan(csv, state: history.state).commands == plan.commands, "ids derive from the file")
        let ledger = try await Ledger.open(at: directory)
        try await ledger.execute(try plan.batch())
        try await ledger.close()
        let again = try importer.plan(csv, state: try LedgerHistory.load(at: directory).state)
        #expect(again.inserted == 0)
        #expect(again.skipped == 3)
    }

    /// Issue item 16, class "a CSV import half-applies or imports a guessed amount".
    @Test("a CSV file with one failed row (an ambiguous amount) imports nothing: batch() is csvRowsFailed naming the line and column")
    func fileWithAFailedRowImportsNothing() async throws {
        let (_, history) = try await Self.makeLedger()
        let csv = "\u{FEFF}date,amount,note,category\n2026-02-03,-12.50,Bakery,Groceries\n2026-02-04,\"1,2,3\",\"Books\nand more\",Groceries\n2026-02-05,x,Bad,Groceries\n"
        let importer = CSVImporter(walletName: "Bob cash", recordedAt: Timestamp(millisecondsSinceEpoch: 1_771_400_000_000))
        let plan = try importer.plan(csv, state: history.state)
        #expect((plan.inserted, plan.skipped, plan.failed) == (1, 0, 2))
        #expect(plan.rows.map(\.line) == [2, 3, 5], "a row is reported at the line it starts on")
        #expect(plan.rows[1].column == "amount")
        #expect(plan.rows[1].reason?.contains("ambiguous") == true, "\(plan.rows[1])")
        #expect { try plan.batch() } throws: { error in
            guard let error = error as? InterchangeError else { return false }
            return error.code == "csvRowsFailed" && error.message.contains("line 3, column amount") && error.message.contains("nothing was imported")
        }
    }

    @Test("CSV export starts with date,type,category,amount,note")
    func csvExport() async throws {
        let (_, history) = try await Self.makeLedger()
        let lines = CSVExporter.export(history).split(separator: "\n")
        #expect(lines[0] == "date,type,category,amount,note,wallet,currency,shared,payer,original_amount,original_currency,payee,subtitle,share:Alice,share:Bob")
        #expect(lines[1] == "2026-01-05,expense,Rent,2400.00,January rent,Joint account,CHF,yes,Alice,,,,,1440.00,960.00")
    }

    @Test("the hledger journal export matches its snapshot")
    func hledgerSnapshot() async throws {
        let (_, history) = try await Self.makeLedger()
        let text = try LedgerJournalExporter.export(history)
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Snapshots/household.journal")
        if ProcessInfo.processInfo.environment["TALLY_RECORD_SNAPSHOTS"] == "1" {
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: url)
        }
        let recorded = try #require(FileManager.default.contents(atPath: url.path), "missing snapshot; record with TALLY_RECORD_SNAPSHOTS=1")
        #expect(String(decoding: recorded, as: UTF8.self) == text)
    }
}
