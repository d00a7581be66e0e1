import Foundation
import SystemPackage
import Tally
import TallyInterchange
import TallyModel
import Testing

/// The interchange entry points a host holding an open `Ledger` uses instead of the engine's
/// validation state (package-internal): `LedgerHistory.load(from:)` and
/// `CSVImporter.plan(_:ledger:)`.
@Suite("Interchange from an open ledger", .serialized)
struct LedgerEntryPointTests {
    static func openLedger() async throws -> (FilePath, Ledger) {
        let directory = FilePath(FileManager.default.temporaryDirectory.appendingPathComponent("tally-ix-open-\(UUID().uuidString)").path)
        let ledger = try await Ledger.open(at: directory, options: LedgerOptions(durability: .none))
        let text = try String(contentsOf: InterchangeLedgerTests.household, encoding: .utf8)
        for command in try CommandParser.parse(lines: text) { try await ledger.execute(command) }
        return (directory, ledger)
    }

    static let csv = "Datum;Betrag;Text;Kategorie\n03.02.2026;-12,50;Bakery;Groceries\n15.02.2026;-40;Books;Groceries\n15.02.2026;-40;Books;Groceries\n"

    static func importer() throws -> CSVImporter {
        var importer = CSVImporter(walletName: "Bob cash", recordedAt: Timestamp(millisecondsSinceEpoch: 1_771_400_000_000))
        importer.mapping = try CSVImporter.Mapping(parsing: "date=Datum,amount=Betrag,note=Text,category=Kategorie")
        return importer
    }

    static func events(_ history: LedgerHistory) throws -> [CommittedEvent] {
        var cursor = try history.eventCursor()
        var events: [CommittedEvent] = []
        while let committed = try cursor.next() { events.append(committed) }
        return events
    }

    @Test("a history loaded from an open ledger equals the one loaded from its directory: read models, events and exports")
    func historyFromOpenLedgerEqualsDirectoryHistory() async throws {
        let (directory, ledger) = try await Self.openLedger()
        let fromLedger = try await LedgerHistory.load(from: ledger)
        let fromDirectory = try LedgerHistory.load(at: directory)
        #expect(fromLedger.lastSequenceNumber == fromDirectory.lastSequenceNumber)
        let last = await ledger.lastSequenceNumber
        #expect(fromLedger.lastSequenceNumber == last)
        #expect(fromLedger.eventCount == fromDirectory.eventCount)
        #expect(try fromLedger.readModels.canonicalJSON().serialized() == fromDirectory.readModels.canonicalJSON().serialized())
        #expect(try Self.events(fromLedger) == Self.events(fromDirectory))
        #expect(CSVExporter.export(fromLedger) == CSVExporter.export(fromDirectory))
        #expect(try LedgerJournalExporter.export(fromLedger) == LedgerJournalExporter.export(fromDirectory))
        try await ledger.close()
    }

    @Test("a history loaded from a ledger ends where the ledger was: later commands are not in its cursor, which still reads after the close")
    func historyFromOpenLedgerEndsAtItsLoad() async throws {
        let (_, ledger) = try await Self.openLedger()
        let history = try await LedgerHistory.load(from: ledger)
        let end = history.lastSequenceNumber
        try await ledger.execute(try Self.importer().plan(Self.csv, ledger: ledger).batch())
        let last = await ledger.lastSequenceNumber
        #expect(last > end)
        try await ledger.close()
        let events = try Self.events(history)
        #expect(events.count == history.eventCount)
        #expect(events.map(\.sequenceNumber) == Array(1...end))
    }

    @Test("a CSV plan against an open ledger equals the plan against its history; after the import, planning again inserts nothing")
    func csvPlanAgainstLedger() async throws {
        let (directory, ledger) = try await Self.openLedger()
        let csv = Self.csv
        let importer = try Self.importer()
        let plan = try await importer.plan(csv, ledger: ledger)
        #expect((plan.inserted, plan.skipped, plan.failed) == (2, 1, 0))
        #expect(try plan.commands == importer.plan(csv, state: LedgerHistory.load(at: directory).state).commands)
        #expect(try await importer.plan(bytes: Array(csv.utf8), ledger: ledger).commands == plan.commands)
        try await ledger.execute(try plan.batch())
        let again = try await importer.plan(csv, ledger: ledger)
        #expect((again.inserted, again.skipped) == (0, 3))
        try await ledger.close()
    }
}
