import TallyModel

/// G6: the size bounds of free text and lists (``LedgerLimits``), checked before any other
/// rule so that an oversized command is rejected naming the field, never sent to the journal
/// (where it would fail as `recordTooLarge`, or bloat every replay).
extension CommandExecutor {
    /// Throws `inputTooLarge` naming the first field over its limit.
    func requireInputSizes(_ action: CommandAction) throws(LedgerError) {
        switch action {
        case .recordTransaction(_, let entry), .editTransaction(_, let entry), .createTemplate(_, _, let entry, _):
            try requireNote(entry.note)
            if let payee = entry.payee { try requireBytes(payee, LedgerLimits.nameBytesMax, "payee", "LedgerLimits.nameBytesMax") }
            if let subtitle = entry.subtitle { try requireBytes(subtitle, LedgerLimits.nameBytesMax, "subtitle", "LedgerLimits.nameBytesMax") }
            try requireCount(entry.tags.count, LedgerLimits.tagsPerTransactionMax, "tags", "LedgerLimits.tagsPerTransactionMax")
            for (index, tag) in entry.tags.enumerated() {
                try requireBytes(tag, LedgerLimits.tagBytesMax, "tags[\(index)]", "LedgerLimits.tagBytesMax")
            }
            if let people = entry.splitWith {
                try requireCount(Self.splitCount(people), LedgerLimits.listEntriesMax, "splitWith", "LedgerLimits.listEntriesMax")
            }
            if let ratios = entry.ratioOverride {
                try requireCount(ratios.count, LedgerLimits.listEntriesMax, "ratioOverride", "LedgerLimits.listEntriesMax")
            }
            if case .createTemplate(_, _, _, let terms?) = action, let sharing = terms.sharing {
                try requireCount(sharing.weights.count, LedgerLimits.listEntriesMax, "sharing", "LedgerLimits.listEntriesMax")
            }
        case .editTemplate(_, _, let name, _, _, let tags, _, _):
            if let name { try requireBytes(name, LedgerLimits.noteBytesMax, "name", "LedgerLimits.noteBytesMax") }
            try requireCount(tags?.count ?? 0, LedgerLimits.tagsPerTransactionMax, "tags", "LedgerLimits.tagsPerTransactionMax")
            for (index, tag) in (tags ?? []).enumerated() {
                try requireBytes(tag, LedgerLimits.tagBytesMax, "tags[\(index)]", "LedgerLimits.tagBytesMax")
            }
        case .setTemplateProfile(_, let description, let website, let paymentMethod, let icon, let color):
            if let description { try requireBytes(description, LedgerLimits.noteBytesMax, "description", "LedgerLimits.noteBytesMax") }
            if let website { try requireBytes(website, LedgerLimits.nameBytesMax, "website", "LedgerLimits.nameBytesMax") }
            if let paymentMethod { try requireBytes(paymentMethod, LedgerLimits.nameBytesMax, "paymentMethod", "LedgerLimits.nameBytesMax") }
            if let icon { try requireBytes(icon, LedgerLimits.tagBytesMax, "icon", "LedgerLimits.tagBytesMax") }
            if let color { try requireBytes(color, LedgerLimits.tagBytesMax, "color", "LedgerLimits.tagBytesMax") }
        case .setWalletConnection(_, let institution, let externalAccountID, _):
            if let institution { try requireBytes(institution, LedgerLimits.nameBytesMax, "institution", "LedgerLimits.nameBytesMax") }
            if let externalAccountID {
                try requireBytes(externalAccountID, LedgerLimits.nameBytesMax, "externalAccountID", "LedgerLimits.nameBytesMax")
            }
        case .addAttachment(_, _, let name, _, let mediaType):
            try requireBytes(name, LedgerLimits.nameBytesMax, "name", "LedgerLimits.nameBytesMax")
            try requireBytes(mediaType, LedgerLimits.mediaTypeBytesMax, "mediaType", "LedgerLimits.mediaTypeBytesMax")
        case .cancelTemplate(_, _, let reason):
            if let reason { try requireBytes(reason, LedgerLimits.noteBytesMax, "reason", "LedgerLimits.noteBytesMax") }
        case .recordTransfer(_, _, _, _, _, _, let note), .editTransfer(_, _, _, _, _, _, let note):
            try requireNote(note)
        case .setSplitRatio(_, let ratios):
            try requireCount(ratios.count, LedgerLimits.listEntriesMax, "ratios", "LedgerLimits.listEntriesMax")
        case .recordSettlement(_, _, _, _, _, let covers, _, _, let note, let paymentMethod):
            try requireCount(covers?.count ?? 0, LedgerLimits.settlementCoversMax, "covers", "LedgerLimits.settlementCoversMax")
            try requireNote(note)
            if let paymentMethod { try requireBytes(paymentMethod, LedgerLimits.nameBytesMax, "paymentMethod", "LedgerLimits.nameBytesMax") }
        case .createGroup(_, _, let members):
            try requireCount(members.count, LedgerLimits.listEntriesMax, "members", "LedgerLimits.listEntriesMax")
        case .recordGroupExpense(_, _, _, _, _, let note, let split, _, let title),
             .editGroupExpense(expenseID: _, paidBy: _, amount: _, date: _, note: let note, split: let split, categoryID: _, title: let title):
            try requireNote(note)
            if let title { try requireBytes(title, LedgerLimits.noteBytesMax, "title", "LedgerLimits.noteBytesMax") }
            let (field, count): (String, Int) = switch split {
            case .equal(let people): ("split.people", people.count)
            case .exact(let amounts): ("split.amounts", amounts.count)
            case .percentage(let ratios): ("split.ratios", ratios.count)
            case .shares(let weights): ("split.weights", weights.count)
            }
            try requireCount(count, LedgerLimits.listEntriesMax, field, "LedgerLimits.listEntriesMax")
        case .setPersonAvatar(_, let emoji, let color, _):
            if let emoji { try requireBytes(emoji, LedgerLimits.tagBytesMax, "emoji", "LedgerLimits.tagBytesMax") }
            if let color { try requireBytes(color, LedgerLimits.tagBytesMax, "color", "LedgerLimits.tagBytesMax") }
        case .updateCategory(_, _, let icon, let color):
            if let icon { try requireBytes(icon, LedgerLimits.tagBytesMax, "icon", "LedgerLimits.tagBytesMax") }
            if let color { try requireBytes(color, LedgerLimits.tagBytesMax, "color", "LedgerLimits.tagBytesMax") }
        case .reorderCategories(let categories):
            try requireCount(categories.count, LedgerLimits.listEntriesMax, "categoryIDs", "LedgerLimits.listEntriesMax")
        case .loadSampleData(let commandIDs):
            try requireCount(commandIDs.count, LedgerLimits.sampleCommandsMax, "commandIDs", "LedgerLimits.sampleCommandsMax")
        case .updateGroup(_, _, let description, let emoji):
            try requireNote(description)
            if let emoji { try requireBytes(emoji, LedgerLimits.tagBytesMax, "emoji", "LedgerLimits.tagBytesMax") }
        case .createGoal(_, let goal), .updateGoal(_, let goal):
            try requireCount(goal.walletIDs.count, LedgerLimits.listEntriesMax, "walletIDs", "LedgerLimits.listEntriesMax")
        case .saveScenario(let scenario):
            try requireCount(scenario.lumpSums.count, LedgerLimits.listEntriesMax, "lumpSums", "LedgerLimits.listEntriesMax")
        case .setAlertSettings(let settings):
            try requireCount(settings.budgetThresholds.count, LedgerLimits.alertThresholdsMax, "budgetThresholds", "LedgerLimits.alertThresholdsMax")
        case .saveImportMapping(_, let columns, let categories):
            try requireCount(columns.count, LedgerLimits.listEntriesMax, "columns", "LedgerLimits.listEntriesMax")
            try requireCount(categories.count, LedgerLimits.listEntriesMax, "categories", "LedgerLimits.listEntriesMax")
            for (index, pair) in columns.enumerated() {
                try requireBytes(pair.column, LedgerLimits.nameBytesMax, "columns[\(index)].column", "LedgerLimits.nameBytesMax")
            }
            for (index, pair) in categories.enumerated() {
                try requireBytes(pair.name, LedgerLimits.nameBytesMax, "categories[\(index)].name", "LedgerLimits.nameBytesMax")
            }
        case .saveView(_, _, _, let filter, _):
            for (field, count) in [("walletIDs", filter.walletIDs.count), ("categoryIDs", filter.categoryIDs.count), ("payers", filter.payers.count),
                                   ("people", filter.people.count), ("tags", filter.tags.count)] {
                try requireCount(count, LedgerLimits.listEntriesMax, "filter.\(field)", "LedgerLimits.listEntriesMax")
            }
            for (index, tag) in filter.tags.enumerated() {
                try requireBytes(tag, LedgerLimits.tagBytesMax, "filter.tags[\(index)]", "LedgerLimits.tagBytesMax")
            }
            if let text = filter.text { try requireBytes(text, LedgerLimits.nameBytesMax, "filter.text", "LedgerLimits.nameBytesMax") }
        case .setIncomeSettings(_, _, let categories, _):
            try requireCount(categories.count, LedgerLimits.listEntriesMax, "incomeCategoryIDs", "LedgerLimits.listEntriesMax")
        default:
            return
        }
    }

    private func requireNote(_ note: String?) throws(LedgerError) {
        guard let note else { return }
        try requireBytes(note, LedgerLimits.noteBytesMax, "note", "LedgerLimits.noteBytesMax")
    }

    private func requireBytes(_ text: String, _ limit: Int, _ field: String, _ limitName: String) throws(LedgerError) {
        let bytes = text.utf8.count
        guard bytes <= limit else {
            throw .violation(.inputTooLarge, "\"\(field)\" is \(bytes) bytes (UTF-8); the limit is \(limit) (\(limitName)): shorten it")
        }
    }

    private func requireCount(_ count: Int, _ limit: Int, _ field: String, _ limitName: String) throws(LedgerError) {
        guard count <= limit else {
            throw .violation(.inputTooLarge, "\"\(field)\" has \(count) entries; the limit is \(limit) (\(limitName)): split the command or trim the list")
        }
    }

    /// The number of people a split lists.
    static func splitCount(_ split: GroupSplit) -> Int {
        switch split {
        case .equal(let people): people.count
        case .exact(let amounts): amounts.count
        case .percentage(let ratios): ratios.count
        case .shares(let weights): weights.count
        }
    }
}
