import Tally

/// A seeded household for the G7 tests (Docs/Privacy.md): three members (Alice the admin, Bob,
/// Carol) and a contact (Dave); two household wallets (no owner) and an own wallet per member,
/// plus Carol's value-observed fund that Alice opened for her; four months of personal income
/// and expenses, expenses shared by all (the household ratio 50/25/25), by two members (a split
/// with people, the payer in it or not) and with the contact; edits that turn personal into
/// shared and back or change the payer; deletions, restores, undo and redo; notes with
/// searchable words (and a private word per member, only ever in their personal notes) and
/// tags; transfers; recurring items (shared by the household, shared by weights, personal) with
/// posted occurrences; a balance point; a group expense; a settlement; alert settings.
///
/// It executes each command on a ledger and keeps, for the commands the ledger accepted, a
/// plain reference of what they did: every transaction as issued (payer, sharers, wallet,
/// category, kind, amount, date, note, tags, live flag), the transfers, wallets and recurring
/// items, and the entities each command touched. It decides nothing about who sees what: that
/// rule is the test's to write. One currency (CHF) throughout; every amount a multiple of 12,
/// so every share of every split is exact (no rounding to model, S3).
public struct PrivacyHousehold: Sendable {
    /// How a transaction is shared.
    public enum Sharing: Sendable, Hashable {
        /// Personal: its payer's.
        case personal
        /// Shared by the household ratio (every member).
        case household
        /// Split equally among these people (members or the contact), with or without the payer.
        case people([PersonID])
    }

    /// A transaction as issued.
    public struct Transaction: Sendable, Hashable {
        public let id: TransactionID
        public var payer: PersonID
        /// Everyone holding a share; `nil` for a personal transaction.
        public var sharers: [PersonID]?
        public var walletID: WalletID
        public var categoryID: CategoryID
        public var kind: TransactionKind
        public var minorUnits: Int64
        public var date: LocalDate
        public var note: String?
        public var tags: [String]
        public var isLive: Bool
        /// The position of the command that recorded it among the accepted commands: orders
        /// transactions as their sequence numbers do.
        public let order: Int
        /// The recurring item it is an occurrence of.
        public let templateID: TemplateID?
    }

    /// A transfer as issued (W6).
    public struct Transfer: Sendable, Hashable {
        public let id: TransferID
        public let from: WalletID
        public let to: WalletID
        public let minorUnits: Int64
        public let date: LocalDate
        public let order: Int
        public var isLive: Bool
    }

    /// A wallet as opened.
    public struct Wallet: Sendable, Hashable {
        public let id: WalletID
        public let name: String
        public let kind: WalletKind
        public let owner: PersonID?
        public let openingMinorUnits: Int64
        /// Whether its value is its balance points (W5), not its movements.
        public let isObserved: Bool
        /// Its latest balance point, for an observed wallet.
        public var pointMinorUnits: Int64?
    }

    /// A recurring item as created (monthly, active).
    public struct Template: Sendable, Hashable {
        public let id: TemplateID
        public let payer: PersonID
        /// Everyone holding a share of its occurrences (household ratio or weights); `nil` when personal.
        public let sharers: [PersonID]?
        public let walletID: WalletID
        public let categoryID: CategoryID
        public let minorUnits: Int64
        public let anchor: LocalDate
        public let note: String
        /// The dates posted as transactions.
        public var posted: [LocalDate] = []
    }

    /// What a command created or changed, as G7 judges an activity entry.
    public enum Touch: Sendable, Hashable {
        case transaction(TransactionID)
        case template(TemplateID)
        case wallet(WalletID)
        /// A transfer between two wallets: seen with either of them.
        case transfer(from: WalletID, to: WalletID)
        /// A settlement between two people, a group or its expense: seen by these people.
        case people([PersonID])
    }

    /// An accepted command that appended events: an activity entry.
    public struct CommandRecord: Sendable, Hashable {
        public let id: CommandID
        public let actor: PersonID
        public let touches: [Touch]
        /// For an undo or redo: the command it acted on.
        public let target: CommandID?
    }

    /// A household settlement (S6).
    public struct Settlement: Sendable, Hashable {
        public let from: PersonID
        public let to: PersonID
        public let minorUnits: Int64
    }

    /// What a transaction command did, for undoing and redoing it.
    private struct Change: Sendable {
        let actor: PersonID
        let before: Transaction?
        let after: Transaction
    }

    public static var alice: PersonID { Scenario.alice }
    public static var bob: PersonID { Scenario.bob }
    public static var carol: PersonID { Scenario.carol }
    /// The contact.
    public static var dave: PersonID { Scenario.dave }
    public static var members: [PersonID] { [alice, bob, carol] }
    /// The household ratio (S1): Alice 50%, Bob and Carol 25% each.
    public static let ratioBasisPoints: [(PersonID, Int64)] = [(alice, 5_000), (bob, 2_500), (carol, 2_500)]
    /// Words the notes are made of.
    public static let vocabulary = ["apple", "bakery", "cinema", "dentist", "fuel", "garden", "holiday", "kiosk", "market", "notebook"]
    /// Each member's private word: only ever in that member's personal notes.
    public static let privateWords: [PersonID: String] = [alice: "quartz", bob: "pelican", carol: "orchid"]
    public static let tagWords = ["kids", "work", "trip"]
    /// The large-transaction alert threshold (R6).
    public static let largeMinorUnits: Int64 = 50_000
    /// The last business date the history uses.
    public static let lastDate = Scenario.date("2026-04-30")

    public var scenario = Scenario()
    public var random: SeededRandom
    public private(set) var wallets: [Wallet] = []
    public private(set) var transactions: [Transaction] = []
    public private(set) var transfers: [Transfer] = []
    public private(set) var templates: [Template] = []
    public private(set) var commands: [CommandRecord] = []
    public private(set) var settlements: [Settlement] = []
    /// The commands the ledger refused (the history is what validation allows).
    public private(set) var rejected: [String] = []
    private var changes: [CommandID: Change] = [:]
    private var changeOrder: [CommandID] = []
    private var undone: Set<CommandID> = []

    public let joint: WalletID
    public let cash: WalletID
    public let aliceBank: WalletID
    public let bobCard: WalletID
    public let carolBank: WalletID
    public let carolFund: WalletID
    public let groceries = Scenario.groceries
    public let restaurants = Scenario.restaurants
    public let salary = Scenario.salary
    public static let transport = CategoryPresets.expense[1].categoryID(in: Scenario.household)
    public static let home = CategoryPresets.expense[6].categoryID(in: Scenario.household)
    public static let health = CategoryPresets.expense[4].categoryID(in: Scenario.household)
    public static let subscriptions = CategoryPresets.expense[8].categoryID(in: Scenario.household)
    public static let freelance = CategoryPresets.income[1].categoryID(in: Scenario.household)
    public var expenseCategories: [CategoryID] { [groceries, restaurants, Self.transport, Self.home] }

    /// A household for `seed`; nothing is executed until ``build(on:steps:)``.
    public init(seed: UInt64) {
        random = SeededRandom(seed: seed)
        joint = scenario.ids.next()
        cash = scenario.ids.next()
        aliceBank = scenario.ids.next()
        bobCard = scenario.ids.next()
        carolBank = scenario.ids.next()
        carolFund = scenario.ids.next()
    }

    /// The transaction `id` as the reference holds it.
    public func transaction(_ id: TransactionID) -> Transaction? { transactions.first { $0.id == id } }

    /// The wallet `id`.
    public func wallet(_ id: WalletID) -> Wallet? { wallets.first { $0.id == id } }

    /// The tracked wallets `payer` may pay from: the household's and their own.
    public func wallets(usableBy payer: PersonID) -> [WalletID] {
        wallets.filter { !$0.isObserved && ($0.owner == nil || $0.owner == payer) }.map(\.id)
    }

    /// Opens the household, then `steps` random commands (a checkpoint halfway), then the
    /// closing commands (a personal expense of each member in the joint account, a large one
    /// of Carol's, an expense Alice records for Carol, a settlement).
    public mutating func build(on ledger: Ledger, steps: Int = 140) async throws {
        try await setUp(ledger)
        for step in 0..<steps {
            if step == steps / 2 { try await ledger.checkpoint() }
            try await randomStep(ledger)
        }
        try await finish(ledger)
    }

    // MARK: Executing commands

    /// Executes `action` by `actor`; on acceptance notes the command (when it appended events)
    /// and returns its id; a rule violation is noted in ``rejected`` and returns `nil`.
    @discardableResult
    public mutating func submit(
        _ action: CommandAction, by actor: PersonID, on ledger: Ledger, touches: [Touch] = [], target: CommandID? = nil
    ) async throws -> CommandID? {
        let command = scenario.command(action, by: actor)
        do {
            let positions = try await ledger.execute(command)
            if !positions.isEmpty {
                commands.append(CommandRecord(id: command.commandID, actor: actor, touches: touches, target: target))
            }
            return command.commandID
        } catch {
            guard case .rejected = error else { throw error }
            rejected.append("\(action): \(error.code) \(error.message)")
            return nil
        }
    }

    /// Records a transaction by `actor` (default: the payer) and keeps it in the reference when accepted.
    @discardableResult
    public mutating func record(
        payer: PersonID, sharing: Sharing, wallet: WalletID, category: CategoryID, kind: TransactionKind = .expense,
        minorUnits: Int64, date: LocalDate, note: String?, tags: [String] = [], by actor: PersonID? = nil, on ledger: Ledger
    ) async throws -> TransactionID? {
        let id: TransactionID = scenario.ids.next()
        let transaction = Transaction(
            id: id, payer: payer, sharers: Self.sharers(sharing), walletID: wallet, categoryID: category, kind: kind,
            minorUnits: minorUnits, date: date, note: note, tags: tags, isLive: true, order: commands.count, templateID: nil)
        let actor = actor ?? payer
        guard let command = try await submit(
            .recordTransaction(transactionID: id, entry: Self.entry(transaction, sharing)), by: actor, on: ledger, touches: [.transaction(id)])
        else { return nil }
        transactions.append(transaction)
        remember(command, actor: actor, before: nil, after: transaction)
        return id
    }

    /// The people holding a share under `sharing`.
    public static func sharers(_ sharing: Sharing) -> [PersonID]? {
        switch sharing {
        case .personal: nil
        case .household: members
        case .people(let people): people
        }
    }

    static func entry(_ transaction: Transaction, _ sharing: Sharing) -> TransactionEntry {
        var entry = TransactionEntry(
            kind: transaction.kind, amount: Scenario.chf(transaction.minorUnits), walletID: transaction.walletID,
            categoryID: transaction.categoryID, date: transaction.date, note: transaction.note, tags: transaction.tags,
            payer: transaction.payer, shared: sharing == .household)
        if case .people(let people) = sharing { entry.splitWith = .equal(people) }
        return entry
    }

    private mutating func remember(_ command: CommandID, actor: PersonID, before: Transaction?, after: Transaction) {
        changes[command] = Change(actor: actor, before: before, after: after)
        changeOrder.append(command)
    }

    private mutating func replace(_ transaction: Transaction) {
        guard let index = transactions.firstIndex(where: { $0.id == transaction.id }) else { return }
        transactions[index] = transaction
    }

    // MARK: The household

    private mutating func setUp(_ ledger: Ledger) async throws {
        let (alice, bob, carol) = (Self.alice, Self.bob, Self.carol)
        try await submit(.createHousehold(householdID: scenario.household, name: "Privacy", baseCurrency: .chf, adminName: "Alice"), by: alice, on: ledger)
        try await submit(.addMember(personID: bob, name: "Bob"), by: alice, on: ledger)
        try await submit(.addMember(personID: carol, name: "Carol"), by: alice, on: ledger)
        try await submit(.addPerson(personID: Self.dave, name: "Dave"), by: alice, on: ledger)
        let ratios = Self.ratioBasisPoints.map { scenario.ratio($0.0, $0.1) }
        try await submit(.setSplitRatio(mode: .manual, ratios: ratios), by: alice, on: ledger)
        try await submit(.setPayday(day: 1), by: alice, on: ledger)
        let opened: [(WalletID, String, WalletKind, PersonID?, Int64, PersonID, Bool)] = [
            (joint, "Joint", .bank, nil, 500_000, alice, false),
            (cash, "Cash", .cash, nil, 20_000, bob, false),
            (aliceBank, "Alice bank", .bank, alice, 300_000, alice, false),
            (bobCard, "Bob card", .card, bob, 0, bob, false),
            (carolBank, "Carol bank", .bank, carol, 200_000, carol, false),
            // Alice (the admin) opens Carol's fund for her: Alice's command, Carol's wallet.
            (carolFund, "Carol fund", .investment, carol, 100_000, alice, true),
        ]
        for (id, name, kind, owner, opening, actor, observed) in opened {
            let action = CommandAction.openWallet(
                walletID: id, name: name, kind: kind, openingBalance: Scenario.chf(opening), openedOn: Scenario.date("2026-01-01"), owner: owner)
            if try await submit(action, by: actor, on: ledger, touches: [.wallet(id)]) != nil {
                wallets.append(Wallet(id: id, name: name, kind: kind, owner: owner, openingMinorUnits: opening, isObserved: observed))
            }
        }
        for (wallet, designation, actor) in [(joint, WalletDesignation.both, alice), (carolBank, .both, carol), (aliceBank, .inflow, alice)] {
            try await submit(.setWalletDesignation(walletID: wallet, designation: designation), by: actor, on: ledger, touches: [.wallet(wallet)])
        }
        try await submit(.allocateBudget(categoryID: groceries, amount: Scenario.chf(20_000)), by: alice, on: ledger)
        try await submit(.setAlertSettings(settings: AlertSettingsSet(
            budgetThresholds: [80, 100], upcomingDays: 10, staleBalanceDays: 30, largeTransaction: Scenario.chf(Self.largeMinorUnits))), by: alice, on: ledger)
        if try await submit(.recordBalance(walletID: carolFund, date: Scenario.date("2026-02-15"), balance: Scenario.chf(120_000)),
                            by: carol, on: ledger, touches: [.wallet(carolFund)]) != nil,
           let index = wallets.firstIndex(where: { $0.id == carolFund }) {
            wallets[index].pointMinorUnits = 120_000
        }
        try await createTemplates(ledger)
        let group: GroupID = scenario.ids.next()
        try await submit(.createGroup(groupID: group, name: "Hut trip", members: [bob, carol, Self.dave]), by: bob, on: ledger,
                         touches: [.people([bob, carol, Self.dave])])
        try await submit(.recordGroupExpense(
            expenseID: scenario.ids.next(), groupID: group, paidBy: carol, amount: Scenario.chf(9_000), date: Scenario.date("2026-02-07"),
            note: "hut holiday", split: .equal([bob, carol, Self.dave])), by: carol, on: ledger, touches: [.people([bob, carol, Self.dave])])
    }

    /// Rent (Alice pays, shared by the household ratio), the gym (Bob pays, shared by weights
    /// with Alice), streaming (Carol's own) and a magazine (Alice's own).
    private mutating func createTemplates(_ ledger: Ledger) async throws {
        let (alice, bob, carol) = (Self.alice, Self.bob, Self.carol)
        let items: [(PersonID, Sharing, WalletID, CategoryID, Int64, String, String)] = [
            (alice, .household, joint, Self.home, 120_000, "2026-01-28", "rent flat"),
            (bob, .people([alice, bob]), joint, Self.health, 6_000, "2026-01-22", "gym club"),
            (carol, .personal, carolBank, Self.subscriptions, 1_200, "2026-01-25", "streaming orchid"),
            (alice, .personal, aliceBank, Self.subscriptions, 960, "2026-01-10", "magazine quartz"),
        ]
        for (payer, sharing, wallet, category, minorUnits, anchor, note) in items {
            let id: TemplateID = scenario.ids.next()
            var entry = TransactionEntry(
                kind: .expense, amount: Scenario.chf(minorUnits), walletID: wallet, categoryID: category, date: Scenario.date(anchor),
                note: note, payer: payer, shared: sharing == .household)
            var terms: TemplateTerms?
            if case .people(let people) = sharing {
                terms = TemplateTerms(sharing: TemplateSharing(kind: .equal, weights: people.map { MemberWeight(person: $0, weight: 1) }))
                entry.isShared = false
            }
            let action = CommandAction.createTemplate(templateID: id, frequency: .monthly, entry: entry, terms: terms)
            if try await submit(action, by: payer, on: ledger, touches: [.template(id)]) != nil {
                templates.append(Template(
                    id: id, payer: payer, sharers: Self.sharers(sharing), walletID: wallet, categoryID: category, minorUnits: minorUnits,
                    anchor: Scenario.date(anchor), note: note))
            }
        }
    }

    private mutating func finish(_ ledger: Ledger) async throws {
        // A personal expense of each member in the household's joint account in March: rows
        // of a wallet every member sees that only one of them may list.
        for (index, member) in Self.members.enumerated() {
            try await record(
                payer: member, sharing: .personal, wallet: joint, category: groceries, minorUnits: 1_200 * Int64(index + 1),
                date: Scenario.date("2026-03-0\(index + 3)"), note: "market \(Self.privateWords[member] ?? "")", tags: ["work"], on: ledger)
        }
        // Carol's large personal expense (a large-transaction alert for her alone), and one
        // Alice records for Carol (Alice's command, Carol's transaction).
        try await record(payer: Self.carol, sharing: .personal, wallet: joint, category: Self.home, minorUnits: 90_000,
                         date: Scenario.date("2026-03-12"), note: "orchid lamp", on: ledger)
        try await record(payer: Self.carol, sharing: .personal, wallet: joint, category: restaurants, minorUnits: 2_400,
                         date: Scenario.date("2026-03-14"), note: "kiosk", by: Self.alice, on: ledger)
        // Bob settles part of what he owes Alice (S6).
        let owed = householdDebts().first { $0.debtor == Self.bob && $0.creditor == Self.alice }?.minorUnits ?? 0
        if owed > 0 {
            let amount = min(owed, 6_000)
            if try await submit(.recordSettlement(
                settlementID: scenario.ids.next(), from: Self.bob, to: Self.alice, amount: Scenario.chf(amount),
                date: Self.lastDate, covers: nil, isAdvance: false, groupID: nil), by: Self.bob, on: ledger,
                touches: [.people([Self.bob, Self.alice])]) != nil {
                settlements.append(Settlement(from: Self.bob, to: Self.alice, minorUnits: amount))
            }
        }
    }

    // MARK: Random commands

    private mutating func randomStep(_ ledger: Ledger) async throws {
        switch Int.random(in: 0..<100, using: &random) {
        case 0..<42: try await recordRandom(ledger)
        case 42..<56: try await editRandom(ledger)
        case 56..<64: try await deleteOrRestoreRandom(ledger, restore: false)
        case 64..<68: try await deleteOrRestoreRandom(ledger, restore: true)
        case 68..<78: try await transferRandom(ledger)
        case 78..<86: try await postRandomOccurrence(ledger)
        case 86..<96: try await undoRandom(ledger)
        default: try await redoRandom(ledger)
        }
    }

    private mutating func recordRandom(_ ledger: Ledger) async throws {
        let payer = random.pick(Self.members)
        let isIncome = Int.random(in: 0..<6, using: &random) == 0
        let sharing = isIncome ? Sharing.personal : randomSharing(payer: payer)
        let actor = Int.random(in: 0..<10, using: &random) == 0 ? Self.alice : payer
        try await record(
            payer: payer, sharing: sharing, wallet: random.pick(wallets(usableBy: payer)),
            category: isIncome ? random.pick([salary, Self.freelance]) : random.pick(expenseCategories), kind: isIncome ? .income : .expense,
            minorUnits: randomAmount(), date: randomDate(), note: randomNote(payer: payer, sharing: sharing), tags: randomTags(),
            by: actor, on: ledger)
    }

    /// An edit of a live transaction that is not an occurrence: often personal to shared or
    /// back, sometimes another payer, amount, date, category, note and tags.
    private mutating func editRandom(_ ledger: Ledger) async throws {
        let candidates = transactions.filter { $0.isLive && $0.templateID == nil }
        guard !candidates.isEmpty else { return try await recordRandom(ledger) }
        let old = random.pick(candidates)
        var new = old
        if Int.random(in: 0..<5, using: &random) == 0 {
            new.payer = random.pick(Self.members.filter { $0 != old.payer })
            if !wallets(usableBy: new.payer).contains(new.walletID) { new.walletID = joint }
        }
        var sharing: Sharing = .personal
        if new.kind == .expense {
            let flip = Int.random(in: 0..<10, using: &random) < 7
            sharing = old.sharers == nil ? (flip ? randomShared(payer: new.payer) : .personal) : (flip ? .personal : randomShared(payer: new.payer))
            if Bool.random(using: &random) { new.categoryID = random.pick(expenseCategories) }
        }
        new.sharers = Self.sharers(sharing)
        if Bool.random(using: &random) { new.minorUnits = randomAmount() }
        if Int.random(in: 0..<3, using: &random) == 0 { new.date = randomDate() }
        new.note = randomNote(payer: new.payer, sharing: sharing)
        new.tags = randomTags()
        let actor = Int.random(in: 0..<10, using: &random) == 0 ? Self.alice : old.payer
        guard let command = try await submit(
            .editTransaction(transactionID: old.id, entry: Self.entry(new, sharing)), by: actor, on: ledger, touches: [.transaction(old.id)])
        else { return }
        replace(new)
        remember(command, actor: actor, before: old, after: new)
    }

    private mutating func deleteOrRestoreRandom(_ ledger: Ledger, restore: Bool) async throws {
        let candidates = transactions.filter { $0.isLive != restore && $0.templateID == nil }
        guard !candidates.isEmpty else { return try await recordRandom(ledger) }
        let old = random.pick(candidates)
        var new = old
        new.isLive = restore
        let action: CommandAction = restore ? .restoreTransaction(transactionID: old.id) : .deleteTransaction(transactionID: old.id)
        guard let command = try await submit(action, by: old.payer, on: ledger, touches: [.transaction(old.id)]) else { return }
        replace(new)
        remember(command, actor: old.payer, before: old, after: new)
    }

    private mutating func transferRandom(_ ledger: Ledger) async throws {
        if let live = transfers.filter(\.isLive).randomElement(using: &random), Int.random(in: 0..<6, using: &random) == 0 {
            guard try await submit(.deleteTransfer(transferID: live.id), by: Self.alice, on: ledger, touches: [.transfer(from: live.from, to: live.to)]) != nil,
                  let index = transfers.firstIndex(where: { $0.id == live.id }) else { return }
            transfers[index].isLive = false
            return
        }
        let (from, to, actor): (WalletID, WalletID, PersonID)
        switch Int.random(in: 0..<4, using: &random) {
        case 0: (from, to, actor) = (joint, cash, random.pick(Self.members))
        case 1: (from, to, actor) = (cash, joint, random.pick(Self.members))
        case 2: (from, to, actor) = (random.pick([aliceBank, carolBank]), joint, Bool.random(using: &random) ? Self.alice : Self.carol)
        default: (from, to, actor) = (joint, bobCard, Self.bob)  // Bob pays his card from the joint account
        }
        let owned = wallet(from)?.owner
        let sender = owned ?? actor
        let id: TransferID = scenario.ids.next()
        let minorUnits = Int64.random(in: 1...200, using: &random) * 100
        let date = randomDate()
        let order = commands.count
        guard try await submit(.recordTransfer(
            transferID: id, fromWalletID: from, toWalletID: to, amountSent: Scenario.chf(minorUnits), amountReceived: Scenario.chf(minorUnits),
            date: date, note: "move"), by: sender, on: ledger, touches: [.transfer(from: from, to: to)]) != nil
        else { return }
        transfers.append(Transfer(id: id, from: from, to: to, minorUnits: minorUnits, date: date, order: order, isLive: true))
    }

    /// Posts the next occurrence (through February) of a random recurring item by its payer.
    private mutating func postRandomOccurrence(_ ledger: Ledger) async throws {
        guard let index = templates.indices.randomElement(using: &random) else { return }
        let template = templates[index]
        guard let date = try? template.anchor.adding(months: template.posted.count), date <= Scenario.date("2026-02-28") else {
            return try await recordRandom(ledger)
        }
        let id: TransactionID = scenario.ids.next()
        let order = commands.count
        guard try await submit(
            .activateTemplate(templateID: template.id, transactionID: id, date: date), by: template.payer, on: ledger, touches: [.transaction(id)])
        != nil else { return }
        templates[index].posted.append(date)
        transactions.append(Transaction(
            id: id, payer: template.payer, sharers: template.sharers, walletID: template.walletID, categoryID: template.categoryID,
            kind: .expense, minorUnits: template.minorUnits, date: date, note: template.note, tags: [], isLive: true, order: order,
            templateID: template.id))
    }

    /// Undoes one of the last transaction commands by its actor (refused when a later event depends on it, T5).
    private mutating func undoRandom(_ ledger: Ledger) async throws {
        let recent = changeOrder.suffix(12).filter { !undone.contains($0) }
        guard let target = recent.randomElement(using: &random), let change = changes[target] else { return try await recordRandom(ledger) }
        guard try await submit(.undo(targetCommandID: target), by: change.actor, on: ledger, target: target) != nil else { return }
        undone.insert(target)
        if let before = change.before {
            replace(before)
        } else {
            var deleted = change.after
            deleted.isLive = false
            replace(deleted)
        }
    }

    private mutating func redoRandom(_ ledger: Ledger) async throws {
        guard let target = changeOrder.filter({ undone.contains($0) }).randomElement(using: &random), let change = changes[target] else {
            return try await recordRandom(ledger)
        }
        guard try await submit(.redo(targetCommandID: target), by: change.actor, on: ledger, target: target) != nil else { return }
        undone.remove(target)
        replace(change.after)
    }

    private mutating func randomSharing(payer: PersonID) -> Sharing {
        Int.random(in: 0..<10, using: &random) < 4 ? .personal : randomShared(payer: payer)
    }

    /// Shared by all, by two members (the payer among them or not), or with the contact.
    private mutating func randomShared(payer: PersonID) -> Sharing {
        switch Int.random(in: 0..<6, using: &random) {
        case 0, 1: return .household
        case 2, 3, 4:
            var pair = Self.members
            pair.remove(at: Int.random(in: 0..<pair.count, using: &random))
            return .people(pair)
        default: return .people([payer, Self.dave])
        }
    }

    /// A multiple of 12; one in seven is at least the large-transaction threshold.
    private mutating func randomAmount() -> Int64 {
        Int.random(in: 0..<7, using: &random) == 0
            ? Int64.random(in: 4_200...6_000, using: &random) * 12 : Int64.random(in: 1...1_500, using: &random) * 12
    }

    private mutating func randomDate() -> LocalDate {
        let month = Int.random(in: 1...4, using: &random)
        let day = Int.random(in: 1...LocalDate.daysInMonth(year: 2026, month: month), using: &random)
        return (try? LocalDate(year: 2026, month: month, day: day)) ?? Scenario.date("2026-02-14")
    }

    /// Two words of the vocabulary, or none; a personal note sometimes has its payer's private word.
    private mutating func randomNote(payer: PersonID, sharing: Sharing) -> String? {
        guard Int.random(in: 0..<5, using: &random) > 0 else { return nil }
        var words = [random.pick(Self.vocabulary), random.pick(Self.vocabulary)]
        if sharing == .personal, Bool.random(using: &random), let word = Self.privateWords[payer] { words.append(word) }
        return words.joined(separator: " ")
    }

    private mutating func randomTags() -> [String] {
        Self.tagWords.filter { _ in Int.random(in: 0..<4, using: &random) == 0 }
    }

    // MARK: Reference values that do not depend on the viewer

    /// A household debt between two people (S5), net of settlements.
    public struct Debt: Sendable, Hashable {
        public let debtor: PersonID
        public let creditor: PersonID
        public let minorUnits: Int64

        public init(debtor: PersonID, creditor: PersonID, minorUnits: Int64) {
            self.debtor = debtor
            self.creditor = creditor
            self.minorUnits = minorUnits
        }
    }

    /// What each person's share of `transaction` is (exact: see the type's comment).
    public static func share(of person: PersonID, in transaction: Transaction) -> Int64 {
        guard let sharers = transaction.sharers, sharers.contains(person) else { return 0 }
        // Every member: the household ratio (a split with people names two of them at most).
        if sharers == members { return transaction.minorUnits * (ratioBasisPoints.first { $0.0 == person }?.1 ?? 0) / 10_000 }
        return transaction.minorUnits / Int64(sharers.count)
    }

    /// Every pair's net debt from the live shared transactions and the settlements, one row
    /// per pair that owes something, sorted by debtor then creditor.
    public func householdDebts() -> [Debt] {
        var owed: [[PersonID]: Int64] = [:]  // [debtor, creditor] -> amount
        for transaction in transactions where transaction.isLive {
            for sharer in transaction.sharers ?? [] where sharer != transaction.payer {
                owed[[sharer, transaction.payer], default: 0] += Self.share(of: sharer, in: transaction)
            }
        }
        for settlement in settlements { owed[[settlement.from, settlement.to], default: 0] -= settlement.minorUnits }
        var debts: [Debt] = []
        let people = Set(owed.keys.flatMap { $0 }).sorted()
        for first in people {
            for second in people where first < second {
                let net = (owed[[first, second]] ?? 0) - (owed[[second, first]] ?? 0)
                if net > 0 { debts.append(Debt(debtor: first, creditor: second, minorUnits: net)) }
                if net < 0 { debts.append(Debt(debtor: second, creditor: first, minorUnits: -net)) }
            }
        }
        return debts.sorted { ($0.debtor, $0.creditor) < ($1.debtor, $1.creditor) }
    }

    /// Whether `transaction` passes `query`'s filters other than its viewer (wallets,
    /// categories, payers, people, tags, kinds, text, dates, amounts, deleted state).
    public static func matches(_ transaction: Transaction, _ query: TransactionQuery) -> Bool {
        (query.walletIDs.isEmpty || query.walletIDs.contains(transaction.walletID))
            && (query.categoryIDs.isEmpty || query.categoryIDs.contains(transaction.categoryID))
            && (query.payers.isEmpty || query.payers.contains(transaction.payer))
            && (query.people.isEmpty || query.people.contains { $0 == transaction.payer || (transaction.sharers ?? []).contains($0) })
            && (query.tags.isEmpty || query.tags.contains { transaction.tags.contains($0) })
            && (query.kinds.isEmpty || query.kinds.contains(transaction.kind))
            && (query.dates.map { $0.contains(transaction.date) } ?? true)
            && (query.minorUnits.map { $0.contains(transaction.minorUnits) } ?? true)
            && (query.deleted == .included || transaction.isLive == (query.deleted == .excluded))
            && (query.text.map { matchesText(transaction, $0) } ?? true)
    }

    /// Every word of `text` starts a word of the note or the tags, case ignored.
    static func matchesText(_ transaction: Transaction, _ text: String) -> Bool {
        let have = words(transaction.note ?? "") + transaction.tags.flatMap(words)
        return words(text).allSatisfy { word in have.contains { $0.hasPrefix(word) } }
    }

    static func words(_ text: String) -> [String] {
        text.lowercased().split { !$0.isLetter && !$0.isNumber }.map(String.init)
    }

    /// `rows` in `order`, ties by the recording command (as the sequence number).
    public static func sorted(_ rows: [Transaction], _ order: TransactionQuery.Order) -> [Transaction] {
        rows.sorted { a, b in
            switch order {
            case .newestFirst: (a.date, a.order) > (b.date, b.order)
            case .oldestFirst: (a.date, a.order) < (b.date, b.order)
            case .largestFirst: (a.minorUnits, a.order) > (b.minorUnits, b.order)
            case .smallestFirst: (a.minorUnits, a.order) < (b.minorUnits, b.order)
            // The model keeps no deletion times: RecentlyDeletedTests checks this order.
            case .recentlyDeletedFirst: a.order > b.order
            case .byCategory:
                (Scenario.categoryName(a.categoryID), a.categoryID) != (Scenario.categoryName(b.categoryID), b.categoryID)
                    ? (Scenario.categoryName(a.categoryID), a.categoryID) < (Scenario.categoryName(b.categoryID), b.categoryID)
                    : (a.date, a.order) > (b.date, b.order)
            }
        }
    }

    /// One movement of a wallet: a transaction or a transfer leg.
    public struct Movement: Sendable, Hashable {
        public enum Source: Sendable, Hashable {
            case transaction(TransactionID)
            case transfer(TransferID)
        }

        public let source: Source
        public let date: LocalDate
        public let order: Int
        /// The change to the wallet's money (income and transfers in positive).
        public let delta: Int64
    }

    /// Every live movement of `walletID`, oldest first by (date, recording order).
    public func movements(of walletID: WalletID) -> [Movement] {
        var result: [Movement] = []
        for transaction in transactions where transaction.isLive && transaction.walletID == walletID {
            result.append(Movement(
                source: .transaction(transaction.id), date: transaction.date, order: transaction.order,
                delta: transaction.kind == .income ? transaction.minorUnits : -transaction.minorUnits))
        }
        for transfer in transfers where transfer.isLive && (transfer.from == walletID || transfer.to == walletID) {
            result.append(Movement(
                source: .transfer(transfer.id), date: transfer.date, order: transfer.order,
                delta: transfer.from == walletID ? -transfer.minorUnits : transfer.minorUnits))
        }
        return result.sorted { ($0.date, $0.order) < ($1.date, $1.order) }
    }

    /// The balance a wallet reports (W3, W5): its latest point when observed, else the opening
    /// balance plus its movements (negated for a liability: what is owed).
    public func balance(of wallet: Wallet) -> Int64 {
        if wallet.isObserved { return wallet.pointMinorUnits ?? wallet.openingMinorUnits }
        return wallet.openingMinorUnits + wallet.kind.movementSign * movements(of: wallet.id).reduce(0) { $0 + $1.delta }
    }
}
