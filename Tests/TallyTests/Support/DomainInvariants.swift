import Tally
import TallyModel
import TallyProjections

/// Domain invariants (Docs/Domain.md) recomputed from the events alone and compared with the read models and the
/// validation state: S8 (group balances sum to zero), S7 (the read model's group balances are
/// the validation state's), W3 (wallet balance = opening + income -
/// expenses +/- transfers), S5 (household debt = unsettled shares net of settlements), S6 (a
/// settlement that is not an advance never exceeds the debt; a settled transaction is never
/// edited or deleted afterwards, T2). Returns one message per violation, naming the rule.
enum DomainInvariants {
    static func violations(events: [CommittedEvent], readModels: Projections, state: LedgerState) -> [String] {
        var fold = IndependentFold()
        var messages: [String] = []
        for committed in events { messages += fold.apply(committed) }
        messages += groupBalancesSumToZero(readModels)
        messages += groupBalancesAgree(readModels, state)
        messages += walletBalances(fold, readModels)
        messages += householdDebts(fold, readModels, state)
        messages += settledTransactionsUnchanged(fold, readModels)
        return messages
    }

    /// S8: every group's member balances sum to exactly zero, per currency.
    static func groupBalancesSumToZero(_ readModels: Projections) -> [String] {
        var messages: [String] = []
        for groupID in readModels.debts.groupIDs {
            do {
                for (currency, balances) in try readModels.debts.groupBalances(groupID) {
                    let sum = balances.reduce(Int64(0)) { $0 &+ $1.balance.minorUnits }
                    if sum != 0 { messages.append("S8: group \(groupID) balances in \(currency) sum to \(sum), not 0") }
                }
            } catch {
                messages.append("S8: group \(groupID) balances cannot be computed: \(error)")
            }
        }
        return messages
    }

    /// S7: every member balance of the read model is the validation state's (one rule, `GroupNets`).
    static func groupBalancesAgree(_ readModels: Projections, _ state: LedgerState) -> [String] {
        var messages: [String] = []
        for groupID in readModels.debts.groupIDs {
            for (currency, balances) in (try? readModels.debts.groupBalances(groupID)) ?? [:] {
                for line in balances where state.debts.groupBalance(groupID, person: line.person, currency: currency) != line.balance.minorUnits {
                    messages.append("S7: \(line.person) in group \(groupID): read model \(line.balance), validation \(state.debts.groupBalance(groupID, person: line.person, currency: currency))")
                }
            }
        }
        return messages
    }

    /// W3: for transaction-tracked wallets, the read model's balance (which the W4 close check
    /// reads too) equals the opening balance and the live flow (income - expenses - transfers out +
    /// transfers in), the flow negated for a liability (the balance is the amount owed, W1).
    static func walletBalances(_ fold: IndependentFold, _ readModels: Projections) -> [String] {
        var messages: [String] = []
        for (walletID, opened) in fold.wallets.sorted(by: { $0.key < $1.key }) where (fold.valuations[walletID] ?? opened.kind.defaultValuation) == .tracked {
            // The read model holds what a liability (card, loan) owes: movements count negated.
            let flow = fold.flow(of: walletID)
            let sign: Int64 = opened.kind.isLiability ? -1 : 1
            let owedOrHeld = opened.openingBalance.minorUnits + sign * flow
            let projected = (try? readModels.wallets.balance(of: walletID))??.minorUnits
            if projected != owedOrHeld {
                messages.append("W3: wallet \(opened.name) read model balance \(projected.map(String.init) ?? "nil"), recomputed \(owedOrHeld)")
            }
        }
        return messages
    }

    /// S5: what each member owes each other member in the household, recomputed from live
    /// shared transactions and household settlements, equals the read model and the validation
    /// state's debt book.
    static func householdDebts(_ fold: IndependentFold, _ readModels: Projections, _ state: LedgerState) -> [String] {
        var messages: [String] = []
        let people = fold.members.sorted()
        for debtor in people {
            for creditor in people where debtor < creditor {
                for currency in fold.currencies.sorted(by: { $0.code < $1.code }) {
                    let expected = fold.owed(by: debtor, to: creditor, in: currency)
                    let projected = (try? readModels.debts.owed(by: debtor, to: creditor, in: currency))?.minorUnits
                    let validated = state.debts.owedMinorUnits(by: debtor, to: creditor, in: currency)
                    if projected != expected || validated != expected {
                        messages.append("S5: \(debtor) owes \(creditor) \(expected) \(currency) recomputed, read model \(projected.map(String.init) ?? "nil"), validation \(validated)")
                    }
                }
            }
        }
        return messages
    }

    /// S6/T2: a transaction covered by a settlement is not edited or deleted after it.
    static func settledTransactionsUnchanged(_ fold: IndependentFold, _ readModels: Projections) -> [String] {
        var messages: [String] = []
        for item in readModels.debts.householdItems() {
            guard let settlementID = item.settledBy, case .transaction(let transactionID) = item.source,
                  let settledAt = fold.settlementSequenceNumbers[settlementID] else { continue }
            for change in fold.changes[transactionID] ?? [] where change.sequenceNumber > settledAt {
                messages.append("T2/S6: transaction \(transactionID) is covered by settlement \(settlementID) (event \(settledAt)) but event \(change.sequenceNumber) (\(change.tag.eventName)) changed it later")
            }
        }
        return messages
    }
}
