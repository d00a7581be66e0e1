extension PersonalDataImport {
    /// Checks that every reference the import reads resolves inside the export: each live
    /// transaction's wallet (one of `wallets`, or of the other members' wallets the export
    /// lists by id, `household.otherWallets`), category and people (payer, shares: the person
    /// or `household.otherPeople`), each live transfer's wallets, each wallet's owner. An
    /// entry that names something the export does not hold was altered or damaged: it is
    /// refused, never carried elsewhere or left behind silently (issue 29).
    ///
    /// - Throws: `personalDataReferenceUnknown` naming the entry, its place in the file
    ///   (`transactions[3].wallet`) and the id that does not resolve.
    static func requireResolvedReferences(in export: PersonalDataExport) throws(InterchangeError) {
        let people = Set([export.person.id] + (export.household?.otherPeople ?? []))
        let wallets = Set(export.wallets.map(\.id))
        let otherWallets = Set(export.household?.otherWallets ?? [])
        let categories = Set(export.categories.map(\.id))
        for (index, wallet) in export.wallets.enumerated() {
            if let owner = wallet.owner, !people.contains(owner) {
                throw unknown("wallet \(wallet.id) (wallets[\(index)].owner)", "owner \(owner) is neither the person nor one of household.otherPeople")
            }
        }
        for (index, transaction) in export.transactions.enumerated() where !transaction.deleted {
            let entry = "transaction \(transaction.id)"
            guard wallets.contains(transaction.wallet) || otherWallets.contains(transaction.wallet) else {
                let older = export.household?.otherWallets == nil
                    ? " (an export made before exports listed the other members' wallets cannot tell them from a wrong id: export the person's data again)"
                    : ""
                throw unknown("\(entry) (transactions[\(index)].wallet)", "wallet \(transaction.wallet) is neither among the export's wallets nor among the other members' wallets it lists (household.otherWallets)\(older)")
            }
            guard categories.contains(transaction.category) else {
                throw unknown("\(entry) (transactions[\(index)].category)", "category \(transaction.category) is not among the export's categories")
            }
            guard people.contains(transaction.payer) else {
                throw unknown("\(entry) (transactions[\(index)].payer)", "payer \(transaction.payer) is neither the person nor one of household.otherPeople")
            }
            for (shareIndex, share) in (transaction.shares ?? []).enumerated() where !people.contains(share.person) {
                throw unknown("\(entry) (transactions[\(index)].shares[\(shareIndex)].person)", "person \(share.person) is neither the person nor one of household.otherPeople")
            }
        }
        for (index, transfer) in export.transfers.enumerated() where !transfer.deleted {
            for (field, wallet) in [("from", transfer.from), ("to", transfer.to)] where !wallets.contains(wallet) {
                throw unknown("transfer \(transfer.id) (transfers[\(index)].\(field))", "wallet \(wallet) is not among the export's wallets")
            }
        }
    }

    private static func unknown(_ entry: String, _ reason: String) -> InterchangeError {
        InterchangeError(
            code: "personalDataReferenceUnknown",
            message: "\(entry): \(reason); the export was altered or damaged, so nothing was imported: export the person's data again")
    }
}
