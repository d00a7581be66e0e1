import Foundation
import SystemPackage
import Tally
import TallyInterchange
import TallyModel
import TallyProjections
import TallyTestSupport
import Testing

/// Docs/Domain.md, section 9: the ledger-journal export is checked by the real `hledger` (Debian package
/// `hledger`, installed by `.ci/run`): its balance of every wallet account equals the engine's.
@Suite("hledger cross-check")
struct HledgerCrossCheckTests {
    static let hledger = ["/usr/bin/hledger", "/usr/local/bin/hledger"].first { FileManager.default.isExecutableFile(atPath: $0) }

    /// The household example plus `count` random incomes and expenses in its wallets.
    static func generatedLedger(transactions count: Int) async throws -> (FilePath, LedgerHistory) {
        let (directory, example) = try await InterchangeLedgerTests.makeLedger()
        let state = example.state
        let admin = try #require(state.household?.admin)
        let wallets = state.wallets.filter { $0.value.isActive && !$0.value.isClosed && !$0.value.isValueObserved }.keys.sorted()
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
                action: .recordTransaction(transactionID: ids.next(), entry: entry)))
        }
        try await ledger.close()
        return (directory, try LedgerHistory.load(at: directory))
    }

    @Test("hledger's balance of every wallet account equals the engine's wallet balance (hundreds of transactions)")
    func hledgerBalancesMatchEngine() async throws {
        let (directory, history) = try await Self.generatedLedger(transactions: 300)
        defer { try? FileManager.default.removeItem(atPath: directory.string) }
        try Self.expectHledgerAgrees(history, directory: directory)
    }

    @Test("W5, Domain section 9: an investment wallet with two balance points on one day, and a transfer into it on a day with a balance point: hledger's balance equals the engine's (one revaluation per day, after the day's movements)")
    func revaluationsMatchEngine() async throws {
        let (directory, example) = try await InterchangeLedgerTests.makeLedger()
        defer { try? FileManager.default.removeItem(atPath: directory.string) }
        let state = example.state
        let admin = try #require(state.household?.admin)
        let investment = try #require(state.wallets.first { $0.value.kind == .investment && $0.value.isActive }?.key)
        let currency = try #require(state.wallets[investment]?.currency)
        let source = try #require(state.wallets.first { $0.value.kind == .bank && $0.value.currency == currency && $0.value.isActive }?.key)
        var ids = DeterministicIDGenerator(seed: 78)
        var clock = Int64(1_772_600_000_000)
        func command(_ action: CommandAction) -> Command {
            clock += 60_000
            return Command(commandID: ids.next(), actor: admin, recordedAt: Timestamp(millisecondsSinceEpoch: clock), action: action)
        }
        let day = try LocalDate(year: 2026, month: 3, day: 10)
        let later = try LocalDate(year: 2026, month: 3, day: 20)
        let ledger = try await Ledger.open(at: directory, options: LedgerOptions(durability: .none))
        try await ledger.execute([
            command(.recordBalance(walletID: investment, date: day, balance: Money(minorUnits: 2_600_000, currency: currency))),
            command(.recordBalance(walletID: investment, date: day, balance: Money(minorUnits: 2_650_000, currency: currency))),
            command(.recordTransfer(
                transferID: ids.next(), fromWalletID: source, toWalletID: investment, amountSent: Money(minorUnits: 50_000, currency: currency),
                amountReceived: Money(minorUnits: 50_000, currency: currency), date: later, note: nil)),
            command(.recordBalance(walletID: investment, date: later, balance: Money(minorUnits: 2_720_000, currency: currency))),
        ])
        try await ledger.close()
        let history = try LedgerHistory.load(at: directory)
        #expect(try history.readModels.wallets.balance(of: investment)?.minorUnits == 2_720_000, "the last point sets the value (W5)")
        try Self.expectHledgerAgrees(history, directory: directory)
    }

    /// Exports `history`, runs `hledger balance` on it and expects every wallet that counts to
    /// have the engine's balance there.
    static func expectHledgerAgrees(_ history: LedgerHistory, directory: FilePath) throws {
        let hledger = try #require(Self.hledger, "hledger is not installed: apt-get install -y hledger (.ci/run does)")
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
