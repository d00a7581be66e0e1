import Tally
import TallyModel

/// Seeded households for the cross-checks of issue 17 A (export against hledger, `balances`
/// against `networth` and the reports): the ``Scenario`` household with wallets of every kind
/// in CHF (base), EUR, USD, JPY (no minor unit) and GBP (never given a rate: an N3 gap), rates
/// set in both directions over the months, incomes and expenses, transfers within and across
/// currencies, balance points on every kind (several on one day, on days with movements, before
/// a wallet's opening), edits that move transactions to other wallets, dates and amounts,
/// deletions and restores, renames to names that differ only in `:` or `;` (which the journal
/// format cannot hold), kind changes, deactivations, closes, flow designations (N5), and undo
/// of recent commands (T5).
///
/// Some commands are rejected by the engine (a taken name, a close with a balance, an undo a
/// later event depends on...): the caller ignores those, so the history is what validation
/// allows. The same seed always yields the same commands.
public struct HouseholdGenerator: Sendable {
    /// One wallet the generator opened.
    public struct Wallet: Sendable {
        /// Its id.
        public let id: WalletID
        /// Its currency.
        public let currency: Currency
    }

    /// The household's people, ids and clock.
    public var scenario = Scenario()
    /// The generator's random numbers.
    public var random: SeededRandom
    /// The wallets opened by ``setup()``.
    public private(set) var wallets: [Wallet] = []
    private var transactions: [TransactionID] = []
    private var transfers: [TransferID] = []
    private var recentCommandIDs: [CommandID] = []
    private var balanceDates: [LocalDate] = []

    /// The currencies of the generated wallets; GBP never gets a rate.
    public static let currencies: [Currency] = [.chf, .eur, .usd, .jpy, .gbp]
    /// Names wallets are opened with or renamed to; `Savings: B` and `Savings B` (and the two
    /// brokers) differ only in characters an hledger account name cannot hold.
    static let names = ["Joint", "Cash", "Savings", "Savings: B", "Savings B", "Visa", "Mortgage", "House", "Broker;2",
                        "Broker 2", "Fonds", "Travel", "Piggy  bank", "Piggy bank", "Other"]

    /// A generator for `seed`.
    public init(seed: UInt64) {
        random = SeededRandom(seed: seed)
    }

    /// The household (Alice, Bob, the scenario's CHF joint account and EUR card), then 6...10
    /// more wallets of random kinds and currencies (some opened in February), and the first
    /// exchange rates.
    public mutating func setup() -> [Command] {
        var commands = scenario.setup()
        wallets = [Wallet(id: scenario.joint, currency: .chf), Wallet(id: scenario.euroCard, currency: .eur)]
        var names = Self.names.filter { $0 != "Joint" }
        for _ in 0..<Int.random(in: 6...10, using: &random) {
            let id: WalletID = scenario.ids.next()
            let currency = random.pick(Self.currencies)
            let kind = random.pick(WalletKind.allCases)
            let name = names.remove(at: Int.random(in: 0..<names.count, using: &random))
            let openedOn = Bool.random(using: &random) ? Scenario.date("2026-01-01") : date(in: 1...2)
            wallets.append(Wallet(id: id, currency: currency))
            commands.append(scenario.command(.openWallet(
                walletID: id, name: name, kind: kind, openingBalance: amount(currency, upTo: 500_000, allowZero: true),
                openedOn: openedOn, owner: Bool.random(using: &random) ? nil : scenario.alice)))
        }
        for currency in [Currency.eur, .usd, .jpy] { commands.append(rate(currency, on: Scenario.date("2026-01-01"))) }
        return commands
    }

    /// The next command.
    public mutating func next() -> Command {
        let command = nextCommand()
        recentCommandIDs.append(command.commandID)
        if recentCommandIDs.count > 30 { recentCommandIDs.removeFirst() }
        return command
    }

    private mutating func nextCommand() -> Command {
        let wallet = random.pick(wallets)
        switch Int.random(in: 0..<100, using: &random) {
        case 0..<34:
            let id: TransactionID = scenario.ids.next()
            transactions.append(id)
            return scenario.command(.recordTransaction(transactionID: id, entry: entry(in: wallet)))
        case 34..<42:
            guard let id = transactions.isEmpty ? nil : random.pick(transactions) else { fallthrough }
            return scenario.command(.editTransaction(transactionID: id, entry: entry(in: random.pick(wallets))))
        case 42..<47:
            guard let id = transactions.isEmpty ? nil : random.pick(transactions) else { fallthrough }
            return scenario.command(Bool.random(using: &random) ? .deleteTransaction(transactionID: id) : .restoreTransaction(transactionID: id))
        case 47..<59:
            let target = random.pick(wallets)
            let sent = amount(wallet.currency, upTo: 200_000)
            let received = wallet.currency == target.currency ? sent : amount(target.currency, upTo: 200_000)
            let id: TransferID = scenario.ids.next()
            transfers.append(id)
            return scenario.command(.recordTransfer(
                transferID: id, fromWalletID: wallet.id, toWalletID: target.id, amountSent: sent, amountReceived: received,
                date: date(in: 1...6), note: Bool.random(using: &random) ? nil : "move"))
        case 59..<62:
            guard let id = transfers.isEmpty ? nil : random.pick(transfers) else { fallthrough }
            return scenario.command(.deleteTransfer(transferID: id))
        case 62..<76:
            // Often a day that has a point or a movement already.
            let day = !balanceDates.isEmpty && Bool.random(using: &random) ? random.pick(balanceDates) : date(in: 1...6)
            balanceDates.append(day)
            return scenario.command(.recordBalance(walletID: wallet.id, date: day, balance: amount(wallet.currency, upTo: 900_000, allowZero: true)))
        case 76..<79:
            return scenario.command(.renameWallet(walletID: wallet.id, name: random.pick(Self.names)))
        case 79..<81:
            return scenario.command(.changeWalletKind(walletID: wallet.id, kind: random.pick(WalletKind.allCases)))
        case 81..<84:
            return scenario.command(Bool.random(using: &random) ? .deactivateWallet(walletID: wallet.id) : .reactivateWallet(walletID: wallet.id))
        case 84..<85:
            return scenario.command(.closeWallet(walletID: wallet.id, closedOn: date(in: 5...6)))
        case 85..<88:
            return rate(random.pick([Currency.eur, .usd, .jpy]), on: date(in: 1...7))
        case 88..<89:
            let month = Bool.random(using: &random) ? nil : try? YearMonth(year: 2026, month: Int.random(in: 1...6, using: &random))
            return scenario.command(.setWalletDesignation(walletID: wallet.id, designation: random.pick(WalletDesignation.allCases), fromMonth: month))
        default:
            guard let target = recentCommandIDs.isEmpty ? nil : random.pick(recentCommandIDs) else {
                return scenario.command(.recordTransaction(transactionID: scenario.ids.next(), entry: entry(in: wallet)))
            }
            return scenario.command(Int.random(in: 0..<4, using: &random) == 0 ? .redo(targetCommandID: target) : .undo(targetCommandID: target))
        }
    }

    /// An income (one in five) or expense in `wallet`, sometimes shared.
    private mutating func entry(in wallet: Wallet) -> TransactionEntry {
        let isIncome = Int.random(in: 0..<5, using: &random) == 0
        let category = isIncome ? random.pick(CategoryPresets.income) : random.pick(CategoryPresets.expense)
        return TransactionEntry(
            kind: isIncome ? .income : .expense, amount: amount(wallet.currency, upTo: isIncome ? 600_000 : 150_000),
            walletID: wallet.id, categoryID: category.categoryID(in: scenario.household), date: date(in: 1...6),
            note: Bool.random(using: &random) ? nil : "generated", payer: random.pick([scenario.alice, scenario.bob]),
            shared: Int.random(in: 0..<4, using: &random) == 0)
    }

    /// A rate for one unit of `currency` in CHF (JPY as CHF/JPY, the reverse pair), near a
    /// plausible value.
    private mutating func rate(_ currency: Currency, on day: LocalDate) -> Command {
        let scale = ExchangeRate.scale
        let rate: ExchangeRate?
        switch currency {
        case .jpy: rate = try? ExchangeRate(base: .chf, quote: .jpy, scaledRate: Int64.random(in: 160...180, using: &random) * scale + Int64.random(in: 0..<scale, using: &random))
        case .usd: rate = try? ExchangeRate(base: .usd, quote: .chf, scaledRate: Int64.random(in: scale * 8 / 10...scale * 9 / 10, using: &random))
        default: rate = try? ExchangeRate(base: currency, quote: .chf, scaledRate: Int64.random(in: scale * 9 / 10...scale, using: &random))
        }
        guard let rate else { return scenario.command(.closePeriod) }
        return scenario.command(.setExchangeRate(exchangeRate: rate, asOf: day))
    }

    /// A positive amount (or zero when allowed) of at most `limit` minor units of a two-digit
    /// currency, scaled down for JPY.
    private mutating func amount(_ currency: Currency, upTo limit: Int64, allowZero: Bool = false) -> Money {
        let top = currency.minorUnitExponent == 0 ? max(1, limit / 100) : limit
        return Money(minorUnits: Int64.random(in: (allowZero ? 0 : 1)...top, using: &random), currency: currency)
    }

    /// A random day in the months of 2026 `months` covers (1 = January), days 1...28 or the
    /// month's last.
    private mutating func date(in months: ClosedRange<Int>) -> LocalDate {
        let month = Int.random(in: months, using: &random)
        let lastDay = LocalDate.daysInMonth(year: 2026, month: month)
        let day = Int.random(in: 0..<8, using: &random) == 0 ? lastDay : Int.random(in: 1...28, using: &random)
        return (try? LocalDate(year: 2026, month: month, day: day)) ?? Scenario.date("2026-01-15")
    }
}
