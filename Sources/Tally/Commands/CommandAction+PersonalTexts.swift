import TallyModel

extension CommandAction {
    /// The action with each of its personal text fields (P1: the strings the executor enters as
    /// ``PersonalText``, Sources/Tally/Tally.docc/Events.md "Personal text") passed through
    /// `transform`: names, e-mail addresses and phone numbers of people, notes, payees,
    /// subtitles and titles, a bank link's institution and account, an attachment's or a view's
    /// name, a template's description, payment method and cancellation reason, a settlement's
    /// note. Every other field is left as it is.
    ///
    /// The one list of a command's personal fields: a synced command's push form replaces them
    /// (``syncPushForm``), so no personal text leaves a device in clear (Docs/Sync.md).
    package func mappingPersonalTexts(_ transform: (String) -> String) -> CommandAction {
        func entry(_ entry: TransactionEntry) -> TransactionEntry {
            var entry = entry
            entry.note = entry.note.map(transform)
            entry.payee = entry.payee.map(transform)
            entry.subtitle = entry.subtitle.map(transform)
            return entry
        }
        switch self {
        case .createHousehold(let id, let name, let currency, let adminName):
            return .createHousehold(householdID: id, name: name, baseCurrency: currency, adminName: transform(adminName))
        case .addMember(let person, let name):
            return .addMember(personID: person, name: transform(name))
        case .addPerson(let person, let name):
            return .addPerson(personID: person, name: transform(name))
        case .renamePerson(let person, let name):
            return .renamePerson(personID: person, name: transform(name))
        case .updatePerson(let person, let name, let email, let phone):
            return .updatePerson(personID: person, name: transform(name), email: email.map(transform), phone: phone.map(transform))
        case .inviteMember(let id, let person, let name, let email):
            return .inviteMember(invitationID: id, personID: person, name: transform(name), email: email.map(transform))
        case .setWalletConnection(let id, let institution, let account, let status):
            return .setWalletConnection(walletID: id, institution: institution.map(transform), externalAccountID: account.map(transform), status: status)
        case .recordTransfer(let id, let from, let to, let sent, let received, let date, let note):
            return .recordTransfer(transferID: id, fromWalletID: from, toWalletID: to, amountSent: sent, amountReceived: received, date: date, note: note.map(transform))
        case .editTransfer(let id, let from, let to, let sent, let received, let date, let note):
            return .editTransfer(transferID: id, fromWalletID: from, toWalletID: to, amountSent: sent, amountReceived: received, date: date, note: note.map(transform))
        case .recordTransaction(let id, let value):
            return .recordTransaction(transactionID: id, entry: entry(value))
        case .editTransaction(let id, let value):
            return .editTransaction(transactionID: id, entry: entry(value))
        case .createTemplate(let id, let frequency, let value, let terms):
            return .createTemplate(templateID: id, frequency: frequency, entry: entry(value), terms: terms)
        case .cancelTemplate(let id, let effectiveOn, let reason):
            return .cancelTemplate(templateID: id, effectiveOn: effectiveOn, reason: reason.map(transform))
        case .editTemplate(let id, let from, let name, let category, let wallet, let tags, let cycle, let nextBilling):
            return .editTemplate(
                templateID: id, effectiveFrom: from, name: name.map(transform), categoryID: category, walletID: wallet, tags: tags, cycle: cycle,
                nextBilling: nextBilling)
        case .setTemplateProfile(let id, let description, let website, let paymentMethod, let icon, let color):
            return .setTemplateProfile(
                templateID: id, description: description.map(transform), website: website, paymentMethod: paymentMethod.map(transform), icon: icon,
                color: color)
        case .addAttachment(let item, let hash, let name, let byteCount, let mediaType):
            return .addAttachment(item: item, contentHash: hash, name: transform(name), byteCount: byteCount, mediaType: mediaType)
        case .recordSettlement(let id, let from, let to, let amount, let date, let covers, let isAdvance, let group, let note, let paymentMethod):
            return .recordSettlement(
                settlementID: id, from: from, to: to, amount: amount, date: date, covers: covers, isAdvance: isAdvance, groupID: group,
                note: note.map(transform), paymentMethod: paymentMethod)
        case .recordGroupExpense(let id, let group, let paidBy, let amount, let date, let note, let split, let category, let title):
            return .recordGroupExpense(
                expenseID: id, groupID: group, paidBy: paidBy, amount: amount, date: date, note: note.map(transform), split: split, categoryID: category,
                title: title.map(transform))
        case .editGroupExpense(let id, let paidBy, let amount, let date, let note, let split, let category, let title):
            return .editGroupExpense(
                expenseID: id, paidBy: paidBy, amount: amount, date: date, note: note.map(transform), split: split, categoryID: category,
                title: title.map(transform))
        case .saveView(let id, let name, let shared, let filter, let report):
            return .saveView(viewID: id, name: transform(name), shared: shared, filter: filter, report: report)
        case .renameView(let id, let name):
            return .renameView(viewID: id, name: transform(name))
        default:
            return self
        }
    }

    /// The action as a device pushes it to a sync server: each non-empty personal text replaced
    /// by ``PersonalText/sealedMarker`` (its sealed bytes travel beside it as the entries a
    /// sealing execution recorded, ``EnteredTexts``); an empty one stays empty (it removes a
    /// text, it enters none).
    package var syncPushForm: CommandAction {
        mappingPersonalTexts { $0.isEmpty ? $0 : PersonalText.sealedMarker }
    }
}
