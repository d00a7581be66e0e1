import Tally
import TallyModel

/// The commands that add entities to a ledger, in the order the ledger's rules need them (a
/// category and a wallet before the entries in them, a wallet deactivated or closed only after
/// its entries): the one place an import builds them, for a person's data
/// (``PersonalDataImport``) and for a backup merged into a ledger (``LedgerBackup/mergePlan(into:options:)``).
/// Each field of an entity is copied into its command here and nowhere else.
struct EntityCommands {
    /// Where a command goes in the order.
    enum Stage: Int, Comparable {
        case people, categories, wallets, balancePoints, transactions, transfers, states

        static func < (lhs: Stage, rhs: Stage) -> Bool { lhs.rawValue < rhs.rawValue }
    }

    /// One command and the entity it adds.
    struct Step {
        /// The entity's kind and id, as a merge plan names it.
        var entity: LedgerBackup.MergeEntity
        /// Who executes it; nil: the import's actor. A transaction or transfer with a note is
        /// executed by the note's writer, so the note stays sealed with their key (P1) and
        /// goes when they are forgotten (P3).
        var actor: PersonID?
        var action: CommandAction
        var stage: Stage
    }

    private(set) var steps: [Step] = []

    /// The steps in dependency order (stable within a stage: the order they were added).
    var ordered: [Step] {
        steps.enumerated().sorted { ($0.element.stage, $0.offset) < ($1.element.stage, $1.offset) }.map(\.element)
    }

    private mutating func add(_ kind: LedgerBackup.MergeEntity.Kind, _ id: String, _ stage: Stage, actor: PersonID? = nil, _ action: CommandAction) {
        steps.append(Step(entity: .init(kind: kind, id: id), actor: actor, action: action, stage: stage))
    }

    /// A contact (never a member: membership is the admin's decision, H6), with the e-mail,
    /// phone, avatar (its emoji and colour: a photo's content is an attachment, not carried)
    /// and archived state given.
    mutating func addPerson(_ id: PersonID, name: String, email: String?, phone: String?, avatar: PersonAvatar?, isArchived: Bool) {
        add(.person, id.description, .people, .addPerson(personID: id, name: name))
        if email != nil || phone != nil {
            add(.person, id.description, .people, .updatePerson(personID: id, name: name, email: email, phone: phone))
        }
        if let avatar, avatar.emoji != nil || avatar.color != nil {
            add(.person, id.description, .people, .setPersonAvatar(personID: id, emoji: avatar.emoji, color: avatar.color))
        }
        if isArchived { add(.person, id.description, .states, .archivePerson(personID: id)) }
    }

    /// A category; deactivated after the entries in it when it is not active (C3), with its
    /// tax class when it has one.
    mutating func addCategory(
        _ id: CategoryID, name: String, group: CategoryGroup, budgetType: BudgetType = .none, shareable: Bool = false,
        icon: String? = nil, color: String? = nil, taxClass: TaxClass? = nil, isActive: Bool = true
    ) {
        add(.category, id.description, .categories, .createCategory(
            categoryID: id, name: name, group: group, budgetType: budgetType, shareable: shareable, icon: icon, color: color))
        if let taxClass { add(.category, id.description, .categories, .setCategoryTaxClass(categoryID: id, taxClass: taxClass)) }
        if !isActive { add(.category, id.description, .states, .deactivateCategory(categoryID: id)) }
    }

    /// A wallet with its opening data; deactivated (W4) or closed after its entries.
    mutating func addWallet(
        _ id: WalletID, name: String, kind: WalletKind, openingBalance: Money, openedOn: LocalDate, owner: PersonID?,
        valuation: WalletValuation, isActive: Bool, closedOn: LocalDate? = nil
    ) {
        add(.wallet, id.description, .wallets, .openWallet(
            walletID: id, name: name, kind: kind, openingBalance: openingBalance, openedOn: openedOn, owner: owner,
            valuation: valuation == kind.defaultValuation ? nil : valuation))
        if let closedOn {
            add(.wallet, id.description, .states, .closeWallet(walletID: id, closedOn: closedOn))
        } else if !isActive {
            add(.wallet, id.description, .states, .deactivateWallet(walletID: id))
        }
    }

    /// A balance point (W5).
    mutating func addBalancePoint(_ wallet: WalletID, date: LocalDate, balance: Money) {
        add(.balancePoint, "\(wallet) \(date)", .balancePoints, .recordBalance(walletID: wallet, date: date, balance: balance))
    }

    /// A transaction as `details` holds it: every field copied, a split with chosen people as
    /// chosen, a household split with the ratios it was resolved with (the same shares, G4):
    /// as an override when it was one or when `householdRatios` (the ratios in force where it
    /// is added, S1) differ, with its payee and subtitle (Swiff 1.1.2). Executed by the writers
    /// of its texts, each adding their own.
    mutating func addTransaction(
        _ id: TransactionID, details: TransactionDetails, splitWith: GroupSplit? = nil, originalAmount: Money? = nil,
        payee: PersonalText? = nil, subtitle: PersonalText? = nil, householdRatios: [MemberRatio]? = nil
    ) {
        let household = splitWith == nil ? details.split : nil
        let override = household.flatMap { $0.isOverride || $0.ratios != householdRatios ? $0.ratios : nil }
        // A text is its writer's (P1): each writer's texts are added by a command of theirs.
        let texts = [details.note, payee, subtitle].compactMap { $0 }.filter { $0.text != nil }
        var writers: [PersonID] = []
        for text in texts where !writers.contains(text.owner) { writers.append(text.owner) }
        func entry(writtenBy known: ArraySlice<PersonID>) -> TransactionEntry {
            func kept(_ text: PersonalText?) -> String? { text.flatMap { known.contains($0.owner) ? $0.text : nil } }
            return TransactionEntry(
                kind: details.kind, amount: details.amount, walletID: details.walletID, categoryID: details.categoryID, date: details.date,
                note: kept(details.note), tags: details.tags, payer: details.payer, shared: household != nil,
                ratioOverride: override, splitWith: splitWith, originalAmount: originalAmount, payee: kept(payee), subtitle: kept(subtitle))
        }
        // Recorded by the first writer with their texts; each other writer then edits in theirs,
        // and an edit keeps an unchanged text with its author, so forgetting either one takes
        // exactly their texts (P3).
        add(.transaction, id.description, .transactions, actor: writers.first,
            .recordTransaction(transactionID: id, entry: entry(writtenBy: writers.prefix(1))))
        for count in writers.indices.dropFirst() {
            add(.transaction, id.description, .transactions, actor: writers[count],
                .editTransaction(transactionID: id, entry: entry(writtenBy: writers.prefix(count + 1))))
        }
    }

    /// A transfer as recorded (W6), executed by the note's writer.
    mutating func addTransfer(_ transfer: TransferRecorded) {
        add(.transfer, transfer.transferID.description, .transfers, actor: transfer.note?.text == nil ? nil : transfer.note?.owner,
            .recordTransfer(
                transferID: transfer.transferID, fromWalletID: transfer.fromWalletID, toWalletID: transfer.toWalletID,
                amountSent: transfer.amountSent, amountReceived: transfer.amountReceived, date: transfer.date,
                note: transfer.note?.text))
    }
}
