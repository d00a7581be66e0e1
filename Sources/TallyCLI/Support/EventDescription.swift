import TallyInterchange
import TallyModel

/// A one-line summary of an event for `tally log`, and the wallets and people it concerns.
struct EventDescription {
    var summary: String
    var wallets: [WalletID] = []
    var people: [PersonID] = []

    init(_ payload: EventPayload, history: LedgerHistory) {
        switch payload {
        case .householdCreated(let event):
            summary = "household \(event.name), \(event.baseCurrency.code), admin \(event.adminName)"
            people = [event.admin]
        case .memberAdded(let event):
            summary = "member \(event.name)"
            people = [event.personID]
        case .personAdded(let event):
            summary = "contact \(event.name)"
            people = [event.personID]
        case .memberInvited(let event):
            summary = "invitation \(event.invitationID) for \(event.name), until \(event.expiresAt)"
            people = [event.personID]
        case .invitationCancelled(let event):
            summary = "invitation \(event.invitationID) cancelled"
        case .walletBalanceAlertSet(let event):
            summary = "balance alert on \(history.walletName(event.walletID)): below \(event.below?.formatted() ?? "-"), above \(event.above?.formatted() ?? "-")"
            wallets = [event.walletID]
        case .walletConnectionSet(let event):
            summary = event.isEmpty
                ? "bank connection of \(history.walletName(event.walletID)) removed"
                : "bank connection of \(history.walletName(event.walletID)): \(event.institution?.description ?? "-"), account \(event.externalAccountID?.description ?? "-"), \(event.status.map { "\($0)" } ?? "-")"
            wallets = [event.walletID]
        case .firstWeekdaySet(let event):
            summary = "weeks start on \(event.firstWeekday)"
        case .invitationAccepted(let event):
            summary = "invitation \(event.invitationID) accepted"
        case .walletOpened(let event):
            summary = "\(event.name) (\(event.kind)) opened with \(event.openingBalance.formatted())"
            wallets = [event.walletID]
        case .transactionRecorded(let event):
            summary = Self.transaction(event.details, payee: event.payee, history: history) + (event.originalAmount.map { " (charged \($0.formatted()))" } ?? "")
            wallets = [event.details.walletID]
            people = [event.details.payer] + (event.details.split?.shares.map(\.person) ?? [])
        case .transactionEdited(let event):
            summary = "edit: " + Self.transaction(event.details, payee: event.payee, history: history) + (event.originalAmount.map { " (charged \($0.formatted()))" } ?? "")
            wallets = [event.details.walletID]
            people = [event.details.payer] + (event.details.split?.shares.map(\.person) ?? [])
        case .transferRecorded(let event):
            summary = "\(history.walletName(event.fromWalletID)) -> \(history.walletName(event.toWalletID)) \(event.amountSent.formatted())"
            wallets = [event.fromWalletID, event.toWalletID]
        case .transferEdited(let edit):
            let event = edit.transfer
            summary = "edit: \(history.walletName(event.fromWalletID)) -> \(history.walletName(event.toWalletID)) \(event.amountSent.formatted())"
            wallets = [event.fromWalletID, event.toWalletID]
        case .balanceRecorded(let event):
            summary = "\(history.walletName(event.walletID)) = \(event.balance.formatted()) on \(event.date)"
            wallets = [event.walletID]
        case .balanceRemoved(let event):
            summary = "\(history.walletName(event.walletID)) balance point on \(event.date) removed"
        case .walletDesignationSet(let event):
            let designation = event.designation.map { "\($0)" } ?? "entry removed"
            summary = "\(history.walletName(event.walletID)) flows: \(designation)" + (event.fromMonth.map { " from \($0)" } ?? "")
            wallets = [event.walletID]
        case .settlementRecorded(let event):
            summary = "\(history.personName(event.from)) paid \(history.personName(event.to)) \(event.amount.formatted())"
            people = [event.from, event.to]
        case .categoryCreated(let event):
            summary = "category \(event.name) (\(event.group))"
        case .periodClosed(let event):
            summary = "period \(event.periodStart) .. \(event.periodEnd) closed"
        case .bonusMarked(let event):
            summary = "income \(event.transactionID) \(event.isBonus ? "marked as a bonus (bonus pool)" : "no longer a bonus")"
        case .bonusAllocated(let event):
            let target = event.categoryID.map { "category \($0)" } ?? event.goalID.map { "goal \($0)" } ?? "?"
            summary = "bonus \(event.transactionID): \(event.amount.formatted()) to \(target)"
        case .bonusRolledIn(let event):
            summary = "bonus \(event.transactionID): \(event.amount.formatted()) rolled into income after 7 days"
        case .splitRatioRecalculated(let event):
            let ratios = event.ratios.map { "\(history.personName($0.person)) \($0.ratio.basisPoints / 100)%" }.joined(separator: ", ")
            summary = "split ratio \(event.isFallback ? "falls back to the manual ratio" : "from income"): \(ratios)"
                + (event.periodStart.map { " from \($0)" } ?? "")
            people = event.ratios.map(\.person)
        case .personUpdated(let event):
            summary = "person \(event.personID) updated: \(event.name)"
            people = [event.personID]
        case .personForgotten(let event):
            summary = "person \(event.personID) forgotten: their names and notes are redacted"
            people = [event.personID]
        case .templatePriceChanged(let event):
            summary = "template \(event.templateID) price \(event.amount.formatted()) from \(event.effectiveFrom)"
        case .templateCancelled(let event):
            summary = "template \(event.templateID) cancelled from \(event.effectiveOn)"
        case .templateEdited(let event):
            summary = "template \(event.templateID) edited from \(event.effectiveFrom)" + (event.cycle.map { ", a \($0) cycle starting then" } ?? "")
            wallets = [event.walletID]
        case .attachmentAdded(let event):
            summary = "attached \(event.name) (\(event.mediaType), \(event.byteCount) bytes, \(event.contentHash)) to \(event.item)"
        case .attachmentRemoved(let event):
            summary = "removed the file \(event.contentHash) from \(event.item)"
        case .occurrenceBillingMarked(let event):
            summary = "template \(event.templateID) occurrence of \(event.date) \(event.status)"
        case .templateSharingAccepted(let event):
            summary = "\(history.personName(event.person)) \(event.accepted ? "accepted" : "did not accept") their part of template \(event.templateID)"
            people = [event.person]
        case .sampleDataLoaded(let event):
            summary = "\(event.commandIDs.count) commands before this one are sample data"
        case .sampleDataCleared(let event):
            summary = "the sample data of command \(event.loadCommandID) cleared"
        case .goalCreated(let event):
            summary = "goal \(event.goal.name): \(event.goal.target.formatted())" + (event.goal.targetDate.map { " by \($0)" } ?? "")
            wallets = event.goal.walletIDs
        case .goalUpdated(let event):
            summary = "goal \(event.goalID) now \(event.goal.name): \(event.goal.target.formatted())"
            wallets = event.goal.walletIDs
        case .goalAmountSet(let event):
            summary = "goal \(event.goalID) saved " + (event.amount.map { "\($0.formatted()) on \(event.date)" } ?? "entry of \(event.date) removed")
        case .scenarioSaved(let event):
            summary = "scenario \(event.name): income \(event.monthlyIncomeDelta.formatted())/month, expenses \(event.monthlyExpenseDelta.formatted())/month"
        case .scenarioActivated(let event):
            summary = event.scenarioID.map { "scenario \($0) active" } ?? "no scenario active (baseline)"
        default:
            summary = ""
        }
    }

    static func transaction(_ details: TransactionDetails, payee: PersonalText?, history: LedgerHistory) -> String {
        let shared = details.split == nil ? "" : " shared"
        return "\(details.kind) \(details.amount.formatted()) \(history.categoryName(details.categoryID)) from \(history.walletName(details.walletID))\(shared)"
            + (payee.map { " payee \"\($0)\"" } ?? "") + (details.note.map { " \"\($0)\"" } ?? "")
    }
}
