import Tally
import TallyModel
import TallyProjections

extension CSVImporter {
    /// Plans one row at a time: the commands so far, every row's outcome, and what the file
    /// already planned (a row duplicating an earlier row of the same file is skipped).
    struct Planner {
        let importer: CSVImporter
        /// The ledger's state, with the categories the plan creates so far (checked with
        /// `LedgerState.applying`, so a row in a new category is checked in it).
        private(set) var state: LedgerState
        let table: CSVTable
        let columns: Columns
        let format: CSVDateFormat
        let payer: PersonID
        let defaultWallet: (key: WalletID, value: WalletRecord)?
        /// The namespace of the ids of rows without an external id (the file's digest).
        let namespace: UUIDValue
        private(set) var commands: [Command] = []
        private(set) var rows: [RowResult] = []
        private(set) var newCategories: [NewCategory] = []
        /// The category the current row needs created, with the state that has it: planned
        /// only with the row's own command (``append(_:line:)``), dropped when the row plans none.
        private var pendingCategory: (command: Command, state: LedgerState, category: NewCategory)?
        /// The suggestion used for the current row's category (Flow US-072).
        private var pendingSuggestion: CategorySuggestion?
        /// What the ledger's transactions teach about payees, learned at the first row that
        /// needs it (Flow US-072), for the importer's actor (G7).
        private lazy var suggestions = CategorySuggestions(state: state, visibleTo: .member(payer))
        /// Live transactions by duplicate key (the lowest id when several share one).
        private let existing: [DuplicateKey: TransactionID]
        private var plannedKeys: [DuplicateKey: Int] = [:]
        private var plannedExternalIDs: [TransactionID: Int] = [:]
        /// The balance points planned so far, by wallet and date: the row's line and where its
        /// outcome and command (if it planned one) are.
        private var plannedPoints: [PointKey: (line: Int, row: Int, command: Int?)] = [:]

        struct PointKey: Hashable {
            let wallet: WalletID
            let date: LocalDate
        }

        init(
            importer: CSVImporter, state: LedgerState, table: CSVTable, columns: Columns, format: CSVDateFormat, payer: PersonID,
            defaultWallet: (key: WalletID, value: WalletRecord)?, namespace: UUIDValue
        ) {
            self.importer = importer
            self.state = state
            self.table = table
            self.columns = columns
            self.format = format
            self.payer = payer
            self.defaultWallet = defaultWallet
            self.namespace = namespace
            var existing: [DuplicateKey: TransactionID] = [:]
            // A redacted or sealed text (its owner forgotten, P3, or its key not held here) cannot
            // be compared: such a transaction is no duplicate of any row (its marker is not its text).
            for (id, record) in state.transactions.allEntries
            where !record.isDeleted && record.payee.map({ $0.text != nil }) != false && record.details.note.map({ $0.text != nil }) != false {
                let details = record.details
                let key = DuplicateKey(
                    wallet: details.walletID, date: details.date, amount: details.amount,
                    note: DuplicateKey.text(payee: record.payee?.text, note: details.note?.text))
                if existing[key].map({ id < $0 }) ?? true { existing[key] = id }
            }
            self.existing = existing
        }

        /// A cell, or nil when its column is not in the file or it is blank.
        private func cell(_ row: [String], _ column: Int?) -> String? {
            guard let column else { return nil }
            let value = row[column].trimmingCharacters(in: .whitespaces)
            return value.isEmpty ? nil : value
        }

        private mutating func fail(_ line: Int, _ reason: String, column: Int?) {
            rows.append(RowResult(line: line, status: .failed, reason: reason, column: column.map { table.header[$0] }))
        }

        private mutating func skip(_ line: Int, _ reason: String) {
            rows.append(RowResult(line: line, status: .skipped, reason: reason))
        }

        mutating func plan(_ row: [String], line: Int) {
            (pendingCategory, pendingSuggestion) = (nil, nil)
            let wallet: (key: WalletID, value: WalletRecord)
            if let account = cell(row, columns.account) {
                guard let found = CSVImporter.openWallet(account, in: state) else {
                    fail(line, "no open wallet named \"\(account)\" (or with that id); open it, or correct the name", column: columns.account)
                    return
                }
                wallet = found
            } else if let defaultWallet {
                wallet = defaultWallet
            } else {
                fail(line, "no wallet: the account cell is empty and no default wallet (--wallet) was given", column: columns.account)
                return
            }
            guard let date = format.parse(row[columns.date]) else {
                fail(line, "date \"\(row[columns.date])\" is not \(format.rawValue)", column: columns.date)
                return
            }
            let reading: CSVAmount.Reading
            do { reading = try CSVAmount.read(row[columns.amount], currency: wallet.value.currency) } catch {
                fail(line, "amount \"\(row[columns.amount])\": \(error.reason)", column: columns.amount)
                return
            }
            let signed = reading.minorUnits
            guard importer.target == .transactions else {
                guard let units = Int64(exactly: signed) else { fail(line, "amount does not fit in 64-bit minor units (G1)", column: columns.amount); return }
                planBalance(wallet.key, date: date, balance: Money(minorUnits: units, currency: wallet.value.currency), line: line)
                return
            }
            guard let kind = kind(of: row, amount: reading, line: line) else { return }
            guard signed != 0 else { fail(line, "amount is zero (T1)", column: columns.amount); return }
            let amount = Money(minorUnits: signed.magnitude > UInt64(Int64.max) ? .max : Int64(signed.magnitude), currency: wallet.value.currency)
            let (payee, note) = (cell(row, columns.payee), cell(row, columns.note))
            let group: CategoryGroup = kind == .income ? .income : .expense
            // A file without payees: the note's payee, as a transaction without one learns (US-072).
            guard let category = category(of: row, group: group, payee: PayeeKey(payee: payee, note: note)?.value, line: line)
            else { return }
            let entry = TransactionEntry(
                kind: kind, amount: amount, walletID: wallet.key, categoryID: category, date: date, note: note,
                tags: importer.sourceTag.map { [$0] } ?? [], payer: payer, payee: payee)
            let key = DuplicateKey(wallet: wallet.key, date: date, amount: amount, note: DuplicateKey.text(payee: payee, note: note))
            if let externalID = cell(row, columns.externalID) {
                planExternal(entry, externalID: externalID, key: key, line: line)
            } else {
                planByKey(entry, key: key, line: line)
            }
        }

        /// The row's category: its category cell (through the category mapping), else the
        /// category suggested for its payee (Flow US-072: high or medium confidence, or any when
        /// there is no default category), else the default category. An unknown name fails the
        /// row, or with ``UnknownCategoryPolicy/create`` plans the category (``pendingCategory``)
        /// unless the name came from the category mapping (a mapping to a missing category is a
        /// mistake to fix, not a name to create).
        private mutating func category(of row: [String], group: CategoryGroup, payee: String?, line: Int) -> CategoryID? {
            let cellCategory = cell(row, columns.category)
            if cellCategory == nil, let payee, let suggestion = suggestions.suggestion(forPayee: payee, group: group),
               suggestion.confidence != .low || importer.defaultCategory == nil {
                pendingSuggestion = suggestion
                return suggestion.categoryID
            }
            guard let fileCategory = cellCategory ?? importer.defaultCategory else {
                fail(line, "no category (map a column, pass a default category, or import payees the ledger knows)", column: columns.category)
                return nil
            }
            let mapped = importer.categoryMapping[fileCategory.lowercased()]
                ?? importer.categoryMapping.filter { $0.key.lowercased() == fileCategory.lowercased() }.min { $0.key < $1.key }?.value
            let categoryName = mapped ?? fileCategory
            if let found = state.categories.first(where: {
                ($0.key.description == categoryName.lowercased() || $0.value.name.lowercased() == categoryName.lowercased())
                    && $0.value.group == group && !$0.value.isDeleted
            }) {
                return found.key
            }
            let taken = state.categories.first {
                !$0.value.isDeleted && ($0.key.description == categoryName.lowercased() || $0.value.name.lowercased() == categoryName.lowercased())
            }
            guard importer.unknownCategories == .create, mapped == nil, taken == nil else {
                let target = state.categories.first { $0.key.description == categoryName.lowercased() }.map { "\"\($0.value.name)\" (\($0.value.group))" }
                let mappedText = mapped == nil ? "" : " (\"\(fileCategory)\" is mapped to \(target ?? "\"\(categoryName)\""))"
                let fix = taken.map { "; the category of that name is \($0.value.group), and none of the same name can be created (C2: names are unique); map the name to another (category mapping)" }
                    ?? "; create it, map the name to one (category mapping), or let the import create it (--unknown-categories create)"
                fail(line, "no \(group) category named \"\(categoryName)\"\(mappedText)\(fix)", column: columns.category)
                return nil
            }
            let id = CategoryID(.derived(namespace: namespace, name: "category.\(group).\(fileCategory.lowercased())"))
            let command = Command(
                commandID: CommandID(.derived(namespace: namespace, name: "createCategory.\(group).\(fileCategory.lowercased())")), actor: payer,
                recordedAt: importer.recordedAt, action: .createCategory(categoryID: id, name: fileCategory, group: group))
            do {
                pendingCategory = (command, try state.applying(command), NewCategory(categoryID: id, name: fileCategory, group: group, line: line))
            } catch {
                fail(line, "the new category \"\(fileCategory)\": \(error.message) (\(error.rule ?? error.code))", column: columns.category)
                return nil
            }
            return id
        }

        /// The row's kind: its type cell (`income` or `expense`, any case), or without one the
        /// amount's sign (negative: expense). A type cell that is neither, or a written sign
        /// that contradicts the type (`-` on an income row: money out; `+` on an expense row:
        /// money in), fails the row naming the cell (nil): never a guess, never a flipped sign.
        private mutating func kind(of row: [String], amount: CSVAmount.Reading, line: Int) -> TransactionKind? {
            guard let type = cell(row, columns.type) else { return amount.minorUnits < 0 ? .expense : .income }
            guard let kind = TransactionKind.allCases.first(where: { String(describing: $0) == type.lowercased() }) else {
                fail(line, "type \"\(type)\" is neither income nor expense; correct it, or leave the cell empty to take the amount's sign (negative: expense)", column: columns.type)
                return nil
            }
            let contradicting: Character = kind == .income ? "-" : "+"
            guard amount.sign != contradicting else {
                let meaning = kind == .income ? "money out, an expense" : "money in, an income"
                fail(line, "amount \"\(row[columns.amount].trimmingCharacters(in: .whitespaces))\" is signed \(contradicting) (\(meaning)) on a row typed \(kind); write the amount without a sign, or correct the type", column: columns.amount)
                return nil
            }
            return kind
        }

        /// A row with an external id: its transaction id derives from the wallet and the id, so
        /// the id alone decides whether it is a duplicate (two equal payments on one day with
        /// different bank ids are two transactions).
        private mutating func planExternal(_ entry: TransactionEntry, externalID: String, key: DuplicateKey, line: Int) {
            let id = CSVImporter.transactionID(externalID: externalID, wallet: entry.walletID)
            if let earlier = plannedExternalIDs[id] {
                skip(line, "duplicate: external id \"\(externalID)\" is also on line \(earlier)")
                return
            }
            plannedExternalIDs[id] = line
            plannedKeys[key] = plannedKeys[key] ?? line
            if let record = state.transactions[id] {
                guard !record.isDeleted else {
                    skip(line, "duplicate: external id \"\(externalID)\" was imported as transaction \(id), which is deleted; restore it to bring it back (T3)")
                    return
                }
                duplicate(of: id, record: record, entry: entry, line: line, reason: "external id \"\(externalID)\"")
                return
            }
            insert(entry, id: id, line: line)
        }

        /// A row without an external id: a duplicate has the same wallet, date, amount and note
        /// (Docs/Domain.md, section 9).
        private mutating func planByKey(_ entry: TransactionEntry, key: DuplicateKey, line: Int) {
            let id = TransactionID(.derived(namespace: namespace, name: "transaction.\(line)"))
            let earlier = plannedKeys[key]
            if let earlier, importer.duplicates != .keepBoth {
                skip(line, "duplicate: same date, amount, wallet and note as line \(earlier)")
                return
            }
            plannedKeys[key] = plannedKeys[key] ?? line
            if importer.duplicates == .keepBoth {
                // Keep both: the row is a transaction of its own, unless this very row of this
                // file was imported before (its id is taken): a re-run inserts nothing.
                guard state.transactions[id] == nil else {
                    skip(line, "duplicate: this row of this file was imported before as transaction \(id)")
                    return
                }
                let twin = existing[key].map { "transaction \($0)" } ?? earlier.map { "line \($0)" }
                insert(entry, id: id, line: line, reason: twin.map { "duplicate of \($0) (same date, amount, wallet and note), both kept" })
                return
            }
            if let existingID = existing[key], let record = state.transactions[existingID] {
                duplicate(of: existingID, record: record, entry: entry, line: line, reason: "same date, amount, wallet and note")
                return
            }
            insert(entry, id: id, line: line)
        }

        /// A balance point (W5): a duplicate is a point of the same wallet and date. In the file,
        /// the later row wins (an export with a running balance per movement, oldest first, ends
        /// each day with the day's balance): the earlier row is reported skipped, superseded. In
        /// the ledger: skipped, or with ``DuplicatePolicy/replace`` recorded over it when its
        /// balance differs.
        private mutating func planBalance(_ wallet: WalletID, date: LocalDate, balance: Money, line: Int) {
            let key = PointKey(wallet: wallet, date: date)
            let earlier = plannedPoints[key]
            let existing = state.readModels.wallets.balancePoint(of: wallet, on: date)
            let command = Command(
                commandID: CommandID(.derived(namespace: namespace, name: "balance.\(line)")), actor: payer, recordedAt: importer.recordedAt,
                action: .recordBalance(walletID: wallet, date: date, balance: balance))
            if let earlier, let index = earlier.command {
                // The later row takes the earlier one's place in the batch, once the engine accepts it.
                do { try state.check(command) } catch {
                    fail(line, "\(error.message) (\(error.rule ?? error.code))", column: nil)
                    return
                }
                commands[index] = command
                rows[earlier.row] = RowResult(line: earlier.line, status: .skipped, reason: "superseded by line \(line): the later balance of the same wallet and date wins")
                plannedPoints[key] = (line, rows.count, index)
                rows.append(existing.map { RowResult(line: line, status: .replaced, reason: "the balance of \($0.formatted()) on \(date) is replaced") }
                    ?? RowResult(line: line, status: .inserted, reason: nil))
                return
            }
            plannedPoints[key] = (line, rows.count, nil)
            if let existing {
                guard importer.duplicates == .replace, existing != balance else {
                    skip(line, "duplicate: the wallet has a balance of \(existing.formatted()) on \(date)\(existing == balance ? ", unchanged" : "")")
                    return
                }
            }
            guard append(command, line: line) else { return }
            plannedPoints[key] = (line, rows.count, commands.count - 1)
            rows.append(existing.map { RowResult(line: line, status: .replaced, reason: "the balance of \($0.formatted()) on \(date) is replaced") }
                ?? RowResult(line: line, status: .inserted, reason: nil))
        }

        /// Plans `command` for `line` when the engine would accept it now (`LedgerState.check`,
        /// the engine's own rules: an amount beyond the ledger's limit...); else fails the row
        /// with the rule's message, so a partial import (`--skip-invalid`) leaves out that row
        /// alone.
        private mutating func append(_ command: Command, line: Int) -> Bool {
            do {
                try (pendingCategory?.state ?? state).check(command)
            } catch {
                pendingCategory = nil
                fail(line, "\(error.message) (\(error.rule ?? error.code))", column: nil)
                return false
            }
            if let pending = pendingCategory {
                commands.append(pending.command)
                state = pending.state
                newCategories.append(pending.category)
                pendingCategory = nil
            }
            commands.append(command)
            return true
        }

        private mutating func insert(_ entry: TransactionEntry, id: TransactionID, line: Int, reason: String? = nil) {
            guard append(Command(
                commandID: CommandID(.derived(namespace: namespace, name: "command.\(line)")), actor: payer, recordedAt: importer.recordedAt,
                action: .recordTransaction(transactionID: id, entry: entry)), line: line) else { return }
            rows.append(RowResult(line: line, status: .inserted, reason: reason, suggestion: pendingSuggestion))
        }

        /// A row that duplicates the live transaction `id`: skipped, or with
        /// ``DuplicatePolicy/replace`` an `editTransaction` to the row's values that keeps what
        /// the file does not hold (tags, payer, the split and its ratio, the subtitle).
        private mutating func duplicate(of id: TransactionID, record: TallyProjections.TransactionRecord, entry: TransactionEntry, line: Int, reason: String) {
            guard importer.duplicates == .replace else {  // skip, and keep-both for an external id (the same bank record)
                skip(line, "duplicate: \(reason) as transaction \(id)")
                return
            }
            if let settlement = state.debts.settlement(coveringTransaction: id) {
                skip(line, "duplicate: \(reason) as transaction \(id), not replaced: settlement \(settlement) covers it (T2); reverse the settlement first")
                return
            }
            let details = record.details
            var edited = entry
            edited.tags = details.tags
            edited.payer = details.payer
            edited.isShared = details.split != nil
            edited.ratioOverride = details.split.flatMap { $0.isOverride ? $0.ratios : nil }
            edited.subtitle = record.subtitle?.description
            guard edited.kind != details.kind || edited.amount != details.amount || edited.walletID != details.walletID
                || edited.categoryID != details.categoryID || edited.date != details.date || edited.note != details.note?.description
                || edited.payee != record.payee?.description
            else {
                skip(line, "duplicate: \(reason) as transaction \(id), unchanged")
                return
            }
            guard append(Command(
                commandID: CommandID(.derived(namespace: namespace, name: "edit.\(line).\(importer.recordedAt.millisecondsSinceEpoch)")),
                actor: payer, recordedAt: importer.recordedAt, action: .editTransaction(transactionID: id, entry: edited)), line: line) else { return }
            rows.append(RowResult(line: line, status: .replaced, reason: "duplicate: \(reason) as transaction \(id), edited to the row's values", suggestion: pendingSuggestion))
        }
    }
}
