import Foundation
import SystemPackage
import Tally
import TallyInterchange
import TallyModel
import TallyProjections
import TallyTestSupport
import Testing

/// DOMAIN 9: the ledger-journal export is checked by the real `hledger` (Debian package
/// `hledger`, installed by `.ci/run`): its balance of every wallet account equals the engine's.
@Suite("hledger cross-check")
struct HledgerCrossCheckTests {
    static let hledger = ["/usr/bin/hledger", "/usr/local/bin/hledger"].first { FileManager.default.isExecutableFile(atPath: $0) }

    /// The household example plus `count` random incomes and expenses in its wallets.
    static func generatedLedger(transactions count: Int) async throws -> (FilePath, LedgerHistory) {
        let (directory, example) = try await InterchangeLedgerTests.makeLedger()
        let state = example.state
        let admin = try #require(state.household?.admin)
        let wallets = state.wallets.filter { $0.value.isActive && !$0.value.isClosed && !$0.value.kind.isValueObserved }.keys.sorted()
        let expenses = state.categories.filter { $0.value.group == .expense && $0.value.isActive && !$0.value.isDeleted }.keys.sorted()
        let incomes = state.categories.filter { $0.value.group == .income && $0.value.isActive && !$0.value.isDeleted }.keys.sorted()
        var ids = DeterministicIDGenerator(seed: 77)
        var random = SeededRandom(seed: 77)
        let ledger = try await Ledger.open(at: directory, options: LedgerOptions(durability: .none))
        var clock = Int64(1_772_000_000_000)
        for _ in 0..<count {
            let walletID = wallets[Int.random(in: 0..<wallets.count, using: &random)]
            guard let wallet = state.wallets[walletID] else { continue }
            let isIncome = Int.random(in: 0..<5, using: &random) == 0
            let categories = isIncome ? incomes : expenses
            let entry = TransactionEntry(
                kind: isIncome ? .income : .expense,
                amount: Money(minorUnits: Int64.random(in: 1...250_000, using: &random), currency: wallet.currency),
                walletID: walletID, categoryID: categories[Int.random(in: 0..<categories.count, using: &random)],
                date: try LocalDate(year: 2026, month: 3, day: Int.random(in: 1...28, using: &random)),
                note: "generated", payer: admin)
            clock += 60_000
            try await ledger.execute(Command(
                commandID: ids.next(), actor: admin, recordedAt: Timestamp(millisecondsSinceEpoch: clock),
                action: .recordTransaction(ids.next(), entry)))
        }
        try await ledger.close()
        return (directory, try LedgerHistory.load(at: directory))
    }

    @Test("hledger's balance of every wallet account equals the engine's wallet balance (hundreds of transactions)")
    func hledgerBalancesMatchEngine() async throws {
        let hledger = try #require(Self.hledger, "hledger is not installed: apt-get install -y hledger (.ci/run does)")
        let (directory, history) = try await Self.generatedLedger(transactions: 300)
        defer { try? FileManager.default.removeItem(atPath: directory.string) }
        let journal = directory.string + ".journal"
        defer { try? FileManager.default.removeItem(atPath: journal) }
        try LedgerJournalExporter.export(history).write(toFile: journal, atomically: true, encoding: .utf8)

        let process = Process()
        process.executableURL = URL(fileURLWithPath: hledger)
        process.arguments = ["-f", journal, "balance", "--flat", "--no-total", "-O", "csv"]
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        let stderr = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(process.terminationStatus == 0, "hledger rejected the export: \(stderr)")

        var hledgerBalances: [String: String] = [:]
        for line in text.split(separator: "\n").dropFirst() {
            let fields = line.split(separator: ",", maxSplits: 1).map { $0.trimmingCharacters(in: CharacterSet(charactersIn: "\"")) }
            if fields.count == 2 { hledgerBalances[fields[0]] = fields[1] }
        }
        let balances = try history.readModels.wallets.balances()
        #expect(balances.count >= 3)
        for wallet in balances where wallet.countsInTotals {
            let root = wallet.kind.isLiability ? "liabilities" : "assets"
            let account = "\(root):\(wallet.kind):\(wallet.name)"
            let expected = wallet.kind.isLiability ? -wallet.balance.minorUnits : wallet.balance.minorUnits
            let reported = try #require(hledgerBalances[account], "hledger has no account \(account): \(hledgerBalances.keys.sorted())")
            let parts = reported.split(separator: " ")
            #expect(parts.count == 2 && parts[0] == wallet.balance.currency.code, "\(account): \(reported)")
            let number = parts.count == 2 ? String(parts[1]) : reported
            let parsed = try Money.parse(number, currency: wallet.balance.currency)
            #expect(parsed.minorUnits == expected, "\(account): hledger \(reported), engine \(wallet.balance.formatted())")
        }
    }
}
