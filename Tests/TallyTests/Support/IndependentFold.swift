import Tally
import TallyModel

/// A deliberately simple fold of the events, written apart from the engine and the
/// projections, that ``DomainInvariants`` compares them with: wallet balances (W3), household
/// debts (S5), settlements (S6) and which events changed each transaction (T2).
struct IndependentFold {
    struct Change {
        let sequenceNumber: UInt64
        let tag: EventTag
    }

    var wallets: [WalletID: WalletOpened] = [:]
    /// The valuations set (W5); a wallet without one has its kind's default.
    var valuations: [WalletID: WalletValuation] = [:]
    var transactions: [TransactionID: (details: TransactionDetails, isLive: Bool)] = [:]
    var transfers: [TransferID: (transfer: TransferRecorded, isLive: Bool)] = [:]
    var settlements: [SettlementRecorded] = []
    var settlementSequenceNumbers: [SettlementID: UInt64] = [:]
    var changes: [TransactionID: [Change]] = [:]
    var members: Set<PersonID> = []
    var currencies: Set<Currency> = []

    /// Folds one event; returns S6 violations found at this event.
    mutating func apply(_ committed: CommittedEvent) -> [String] {
        let sequenceNumber = committed.sequenceNumber
        switch committed.event.payload {
        case .householdCreated(let created): members.insert(created.admin)
        case .memberAdded(let added): members.insert(added.personID)
        case .walletOpened(let opened): wallets[opened.walletID] = opened
        case .walletValuationSet(let set): valuations[set.walletID] = set.valuation
        case .transactionRecorded(let recorded): record(recorded.transactionID, recorded.details)
        case .templateActivated(let activated): record(activated.transactionID, activated.details)
        case .transactionEdited(let edited):
            transactions[edited.transactionID]?.details = edited.details
            changes[edited.transactionID, default: []].append(Change(sequenceNumber: sequenceNumber, tag: .transactionEdited))
        case .transactionDeleted(let deleted):
            transactions[deleted.transactionID]?.isLive = false
            changes[deleted.transactionID, default: []].append(Change(sequenceNumber: sequenceNumber, tag: .transactionDeleted))
        case .transactionRestored(let restored): transactions[restored.transactionID]?.isLive = true
        case .transferRecorded(let transfer): transfers[transfer.transferID] = (transfer, true)
        case .transferEdited(let edited): transfers[edited.transfer.transferID]?.transfer = edited.transfer
        case .transferDeleted(let deleted): transfers[deleted.transferID]?.isLive = false
        case .settlementRecorded(let settlement):
            var violations: [String] = []
            if settlement.groupID == nil, settlement.covers == nil, !settlement.isAdvance {
                let owed = max(0, owed(by: settlement.from, to: settlement.to, in: settlement.amount.currency))
                if settlement.amount.minorUnits > owed {
                    violations.append("S6: settlement \(settlement.settlementID) at event \(sequenceNumber) pays \(settlement.amount.minorUnits) but only \(owed) was owed and it is not an advance")
                }
            }
            settlementSequenceNumbers[settlement.settlementID] = sequenceNumber
            if settlement.groupID == nil { settlements.append(settlement) }
            return violations
        default: break
        }
        return []
    }

    private mutating func record(_ id: TransactionID, _ details: TransactionDetails) {
        transactions[id] = (details, true)
        currencies.insert(details.amount.currency)
    }

    /// W3: live income - live expenses - live transfers out + live transfers in.
    func flow(of walletID: WalletID) -> Int64 {
        var units: Int64 = 0
        for (details, isLive) in transactions.values where isLive && details.walletID == walletID {
            units += details.kind == .income ? details.amount.minorUnits : -details.amount.minorUnits
        }
        for (transfer, isLive) in transfers.values where isLive {
            if transfer.fromWalletID == walletID { units -= transfer.amountSent.minorUnits }
            if transfer.toWalletID == walletID { units += transfer.amountReceived.minorUnits }
        }
        return units
    }

    /// S5: shares of live shared transactions paid by one for the other (an expense's share is
    /// owed to the payer; a shared income's share is owed by the payer), net of household
    /// settlements between the two (negative: `creditor` owes `debtor`).
    func owed(by debtor: PersonID, to creditor: PersonID, in currency: Currency) -> Int64 {
        var units: Int64 = 0
        for (details, isLive) in transactions.values where isLive && details.amount.currency == currency {
            guard let split = details.split else { continue }
            for share in split.shares where share.person != details.payer {
                let (from, to) = details.kind == .expense ? (share.person, details.payer) : (details.payer, share.person)
                if from == debtor && to == creditor { units += share.amount.minorUnits }
                if from == creditor && to == debtor { units -= share.amount.minorUnits }
            }
        }
        for settlement in settlements where settlement.amount.currency == currency {
            if settlement.from == debtor && settlement.to == creditor { units -= settlement.amount.minorUnits }
            if settlement.from == creditor && settlement.to == debtor { units += settlement.amount.minorUnits }
        }
        return units
    }
}
