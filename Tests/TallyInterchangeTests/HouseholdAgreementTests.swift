import Foundation
import SystemPackage
import Tally
@testable import TallyInterchange
import TallyModel
import TallyProjections
import TallyStore
import TallyTestSupport
import Testing

/// Issue 17 A: on seeded generated households (``HouseholdGenerator``: every wallet kind, five
/// currencies, rates both ways, balance points, edits, transfers across currencies, undo), the
/// ledger export agrees with the real `hledger` for every wallet, and `balances`, `networth`
/// and the reports agree with each other (G2: a converted total differs from its shown parts
/// by at most one minor unit per part).
@Suite("Generated households agree with hledger and with each other")
struct HouseholdAgreementTests {
    /// Households checked per run (Docs/Interchange.md states the count and the time).
    static let households = 60
    /// Commands per household after the setup.
    static let commandsPerHousehold = 250

    @Test("G2, W3, W5, N1, N5, Domain section 9: generated households: hledger's balance of every wallet account equals tally's, the report's category totals equal hledger's category accounts, and balances, networth, flows and their parts agree", arguments: [0, 1, 2, 3])
    func generatedHouseholdsAgree(slice: Int) async throws {
        let hledger = Hledger.executable
        var wallets = 0
        var households = 0
        for seed in stride(from: UInt64(slice + 1), through: UInt64(Self.households), by: 4) {
            wallets += try await check(seed: seed, hledger: hledger)
            households += 1
        }
        #expect(wallets > 0)
        print("issue 17 A: slice \(slice): \(households) households, \(wallets) wallets compared\(hledger == nil ? " (hledger not on PATH: without the hledger part)" : "")")
    }

    /// Builds household `seed`, runs every check and returns the number of wallets compared.
    func check(seed: UInt64, hledger: String?) async throws -> Int {
        let directory = FilePath(FileManager.default.temporaryDirectory.appendingPathComponent("tally-agree-\(seed)-\(UUID().uuidString)").path)
        defer { try? FileManager.default.removeItem(atPath: directory.string) }
        var generator = HouseholdGenerator(seed: seed)
        var ledger = try await Ledger.open(at: directory, options: LedgerOptions(durability: .none))
        for command in generator.setup() { try await ledger.execute(command) }
        for _ in 0..<Self.commandsPerHousehold { _ = try? await ledger.execute(generator.next()) }
        try await ledger.close()
        // Reopened, the read side has caught up with everything (the reports' store).
        ledger = try await Ledger.open(at: directory, options: LedgerOptions(durability: .none))
        var query = TransactionQuery(visibleTo: .audit)
        query.kinds = [.income, .expense]
        let reportTotals = try await ledger.categoryTotals(byMonth: query)
        try await ledger.close()
        let history = try LedgerHistory.load(at: directory)
        let models = history.readModels

        try Self.expectTotalsAgree(models, seed: seed)
        guard let hledger else { return try models.wallets.balances().count }
        let journal = try LedgerJournalExporter.export(history)
        let accounts = LedgerJournalExporter.accountNames(history.state)
        #expect(Set(accounts.values).count == accounts.count, "seed \(seed): two wallets share an account name: \(accounts.values.sorted())")
        // Every month end (hledger's --end is exclusive), then the whole journal.
        var ends: [LocalDate?] = (1...6).compactMap { try? YearMonth(year: 2026, month: $0).lastDay }
        ends.append(nil)
        var balances: [String: [Currency: Int64]] = [:]
        var walletBalances: [WalletBalance] = []
        for end in ends {
            let label = "seed \(seed) as of \(end?.isoString ?? "the end")"
            balances = try Hledger.balances(of: journal, executable: hledger, label: label, through: end)
            walletBalances = try models.wallets.balances(asOf: end)
            for wallet in walletBalances {
                let account = try #require(accounts[wallet.walletID], "\(label): no account for \(wallet.name)")
                let expected = wallet.kind.isLiability ? -wallet.balance.minorUnits : wallet.balance.minorUnits
                let reported = balances[account]?[wallet.balance.currency] ?? 0
                #expect(reported == expected, "\(label): \(account): hledger \(reported), tally \(wallet.balance.formatted())")
                let commodities = Set((balances[account] ?? [:]).keys)
                #expect(commodities.isSubset(of: [wallet.balance.currency]), "\(label): \(account) holds another commodity")
            }
        }
        // The report (read-side store) against hledger's category accounts, per currency.
        var reported: [String: [Currency: Int64]] = [:]
        for total in reportTotals {
            let name = LedgerJournalExporter.sanitized((total.categoryName ?? "").lowercased())
            let account = (total.kind == .expense ? "expenses:" : "income:") + name
            let signed = total.kind == .expense ? total.total.minorUnits : -total.total.minorUnits
            reported[account, default: [:]][total.total.currency, default: 0] += signed
        }
        let categoryAccounts = balances.filter { $0.key.hasPrefix("expenses:") || $0.key.hasPrefix("income:") }
            .mapValues { $0.filter { $0.value != 0 } }.filter { !$0.value.isEmpty }
        #expect(reported == categoryAccounts, "seed \(seed): report \(reported) vs hledger \(categoryAccounts)")
        return walletBalances.count
    }

    /// `balances` totals against the `networth` series at every month end (same date, same
    /// rates: equal), and each total against its shown parts (G2).
    static func expectTotalsAgree(_ models: Projections, seed: UInt64) throws {
        let series = try models.netWorth.series()
        for point in series {
            let totals = try models.wallets.totals(asOf: point.month.lastDay)
            #expect(totals.missingRates == point.missingRates, "seed \(seed) \(point.month): missing rates")
            #expect(totals.baseTotal == point.value, "seed \(seed) \(point.month): balances total \(totals.baseTotal?.formatted() ?? "-"), networth \(point.value.formatted())")
            let parts = point.contributions.compactMap(\.converted)
            let partSum = parts.reduce(Int64(0)) { $0 + $1.minorUnits }
            #expect(abs(partSum - point.value.minorUnits) <= Int64(parts.count), "seed \(seed) \(point.month): shown parts \(partSum) vs total \(point.value.minorUnits)")
            let balances = try models.wallets.balances(asOf: point.month.lastDay)
            for contribution in point.contributions {
                let wallet = balances.first { $0.walletID == contribution.walletID }
                let signed = wallet.map { $0.kind.isLiability ? -$0.balance.minorUnits : $0.balance.minorUnits }
                #expect(signed == contribution.value.minorUnits, "seed \(seed) \(point.month): \(contribution.walletID)")
            }
        }
        // N5 against balances: a wallet without points up to a month's end changes by its
        // balance at that month's end less the previous month's end; the totals are within one
        // minor unit per counted wallet of their shown parts (G2).
        for (previous, point) in zip(series, series.dropFirst()) {
            let flows = try models.netWorth.flows(in: point.month, visibleTo: .audit)
            let before = try models.wallets.balances(asOf: previous.month.lastDay)
            let after = try models.wallets.balances(asOf: point.month.lastDay)
            func signed(_ balance: WalletBalance?) -> Int64? {
                balance.map { $0.kind.isLiability ? -$0.balance.minorUnits : $0.balance.minorUnits }
            }
            for row in flows.wallets where row.source == .ledger {
                guard let start = signed(before.first { $0.walletID == row.walletID }),
                      let end = signed(after.first { $0.walletID == row.walletID }) else { continue }
                #expect(row.change.minorUnits == end - start, "seed \(seed) \(point.month): flows change of \(row.walletID)")
            }
            let inflowParts = flows.wallets.reduce(Int64(0)) { $0 + $1.inflow.minorUnits }
            let outflowParts = flows.wallets.reduce(Int64(0)) { $0 + $1.outflow.minorUnits }
            #expect(abs(inflowParts - flows.inflow.minorUnits) <= Int64(flows.wallets.count), "seed \(seed) \(point.month): inflow parts")
            #expect(abs(outflowParts - flows.outflow.minorUnits) <= Int64(flows.wallets.count), "seed \(seed) \(point.month): outflow parts")
        }
        if let last = series.last {
            let counted = try models.wallets.balances(asOf: last.month.lastDay).filter(\.countsInTotals)
            #expect(Set(counted.map(\.walletID)) == Set(last.contributions.map(\.walletID)), "seed \(seed): the same wallets count in balances and networth")
        }
    }
}

/// The `hledger` found on `PATH` (the Debian package `hledger`; `.ci/run` installs it through
/// `Scripts/setup`).
enum Hledger {
    static let executable: String? = {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
        return path.split(separator: ":").map { "\($0)/hledger" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }()

    /// `hledger balance` of `journal` (through the end of `end` when given): per account, per
    /// commodity, in minor units (every account, zero balances included).
    static func balances(
        of journal: String, executable: String, label: String, through end: LocalDate? = nil
    ) throws -> [String: [Currency: Int64]] {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("tally-hledger-\(UUID().uuidString).journal")
        try journal.write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = ["-f", file.path, "balance", "--flat", "--empty", "--no-total", "-O", "csv"]
            + (end.flatMap { try? $0.adding(days: 1) }.map { ["--end", $0.isoString] } ?? [])
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let stderr = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(label): hledger rejected the export: \(stderr)")
        var result: [String: [Currency: Int64]] = [:]
        for line in text.split(separator: "\n").dropFirst() {
            let fields = line.split(separator: ",", maxSplits: 1).map { $0.trimmingCharacters(in: CharacterSet(charactersIn: "\"")) }
            guard fields.count == 2 else { continue }
            var amounts: [Currency: Int64] = [:]
            for amount in fields[1].split(separator: ",").map({ $0.trimmingCharacters(in: .whitespaces) }) where amount != "0" {
                let parts = amount.split(separator: " ")
                guard parts.count == 2, let currency = try? Currency(String(parts[0])) else {
                    Issue.record("\(label): \(fields[0]): unreadable amount \(amount)")
                    continue
                }
                amounts[currency] = try Money.parse(String(parts[1]), currency: currency).minorUnits
            }
            result[fields[0]] = amounts
        }
        return result
    }
}
