import Foundation
import GRDB

/// The store's tables (one place: created here, listed here, read and written by
/// `StoreRowWriter` / `StoreRowReader`). Ids are their 16 bytes (`Identifier.storeValue`), dates `yyyymmdd`
/// integers (sortable), amounts integer minor units with their currency code (G1).
enum StoreSchema {
    /// Tables that grow with history: emptied by a rebuild.
    static let historyTables = transactionTables + ["transfers", "settlements"]
    /// The tables a transaction's rows live in: its row, its search text, tags, split, and its
    /// part of the month's totals.
    static let transactionTables = ["transactions", "transaction_search", "transaction_tags", "transaction_shares", "month_totals"]
    /// Tables of live state (O(live), not O(history)), covered by the coverage row's digest
    /// (`LiveDigest`); a commit writes only their rows that changed.
    static let liveTables = ["wallet_balances", "totals", "household_debts", "people", "categories"]
    static let allTables = ["coverage"] + historyTables + liveTables
    /// The checkpoint's tables (``LedgerStore/writeCheckpoint(_:version:replacingAll:state:)``): the
    /// history the engine does not keep in memory, one row per key (the transaction book is
    /// `transactions`: commits add here only its records as of the checkpoint), the version it is
    /// as of, and the live state as of the checkpoint. Not part of the read tables' digests (the
    /// audit compares them with a fold at the checkpoint's sequence number).
    static let checkpointTables = ["history", "history_version", "checkpoint"]
    /// The `month_totals.viewer` of the household's cells (`Viewer.audit`): no person's id.
    static let householdViewer = Data()

    /// The secondary indexes of the history tables, by name: what queries need and a store that
    /// is only digested (an audit's scratch store, ``LedgerStore/dropHistoryIndexes()``) does
    /// without.
    static let historyIndexes: [(name: String, on: String)] = [
        ("transactions_by_wallet", "transactions (wallet_id, date DESC, sequence DESC)"),
        ("transactions_by_date", "transactions (date, sequence)"),
        ("transactions_by_amount", "transactions (amount, sequence)"),
        ("transactions_by_category", "transactions (category_id, date, sequence)"),
        // A payee's transactions (category suggestions, Flow US-072): one range per payee.
        ("transactions_by_payee", "transactions (payee_key) WHERE payee_key IS NOT NULL"),
        // A category with a wallet, dates and amounts (a combined filter) without reading the
        // table for each candidate.
        ("transactions_by_category_wallet", "transactions (category_id, wallet_id, date, sequence, amount, is_live)"),
        // "Recently deleted" (US-020): the deleted rows by deletion time, newest first.
        ("transactions_by_deletion", "transactions (deleted_at, sequence) WHERE deleted_at IS NOT NULL"),
        ("tags_by_tag", "transaction_tags (tag, transaction_id)"),
        ("shares_by_person", "transaction_shares (person_id, transaction_id)"),
        // A person's settlements (S6; Swiff 1.3.1 history, Flow US-040): the payer's and the
        // receiver's, by date.
        ("settlements_by_from", "settlements (from_id, date, sequence)"),
        ("settlements_by_to", "settlements (to_id, date, sequence)"),
        ("settlements_by_date", "settlements (date, sequence)"),
        ("transfers_from_wallet", "transfers (from_wallet_id, date DESC, sequence DESC)"),
        ("transfers_to_wallet", "transfers (to_wallet_id, date DESC, sequence DESC)"),
    ]

    /// The ``historyIndexes`` the engine's fold reads the transaction book's ranges through
    /// (a category's transactions, C3; a period's, B1: `LedgerStore.transactionRecords(matching:asOf:)`).
    static let bookIndexes: Set<String> = ["transactions_by_category", "transactions_by_date", "transactions_by_payee"]

    /// Drops the ``historyIndexes`` but the ``bookIndexes`` (from an empty store that is never
    /// queried).
    static func dropHistoryIndexes(in database: Database) throws {
        for index in historyIndexes where !bookIndexes.contains(index.name) { try database.execute(sql: "DROP INDEX \(index.name)") }
    }

    static func create(in database: Database) throws {
        try database.execute(sql: """
            -- The entries of the engine's archived maps (TallyProjections' ArchiveSpace): one
            -- row per key, its value as of the checkpoint that wrote it (`version`, its sequence
            -- number: a state reads only rows of checkpoints it settled against, StoreHistory).
            CREATE TABLE history (
                space INTEGER NOT NULL,
                key BLOB NOT NULL,
                value BLOB NOT NULL,
                version INTEGER NOT NULL,
                PRIMARY KEY (space, key)) WITHOUT ROWID;
            -- The sequence number the history is as of (the last checkpoint's, or a rebuild
            -- window's). The transaction and transfer books are the `transactions` and
            -- `transfers` tables, which every commit writes: the first commit after it that
            -- changes a row keeps the row's value as of it in `history` (spaces 8 and 9) until
            -- the next, so a state restored from the checkpoint reads the books as of the
            -- checkpoint (StoreBook, LedgerStore.bookRecord).
            -- `complete` = 0: the history was copied into a rebuilt store whose rows are newer
            -- (a rebuild from the read models), without the records of the rows changed since:
            -- an open does not restore its checkpoint (LedgerStore.keptRecordsComplete).
            CREATE TABLE history_version (
                id INTEGER PRIMARY KEY CHECK (id = 1),
                version INTEGER NOT NULL,
                complete INTEGER NOT NULL);
            -- The live state as of the last checkpoint (the engine's checkpoint encoding, with
            -- its sequence number and chain value).
            CREATE TABLE checkpoint (
                id INTEGER PRIMARY KEY CHECK (id = 1),
                state BLOB NOT NULL);
            CREATE TABLE coverage (
                id INTEGER PRIMARY KEY CHECK (id = 1),
                sequence INTEGER NOT NULL,
                chain BLOB NOT NULL,
                live_digest BLOB NOT NULL,
                -- The store's epoch when this row was written (store_epoch).
                epoch BLOB NOT NULL);
            -- A random value renewed each time the WAL is copied into the main file and emptied
            -- (LedgerStore.renewEpoch): the coverage row, written by every commit, records the
            -- one it saw, so a main file and a WAL of different moments (put together by a
            -- tool, or one file restored alone) disagree, and the open refuses the store
            -- before anything reads it.
            CREATE TABLE store_epoch (
                id INTEGER PRIMARY KEY CHECK (id = 1),
                epoch BLOB NOT NULL);
            INSERT INTO store_epoch (id, epoch) VALUES (1, randomblob(16));
            CREATE TABLE transactions (
                transaction_id BLOB PRIMARY KEY,
                wallet_id BLOB NOT NULL,
                category_id BLOB NOT NULL,
                payer_id BLOB NOT NULL,
                kind INTEGER NOT NULL,
                amount INTEGER NOT NULL,
                currency TEXT NOT NULL,
                date INTEGER NOT NULL,
                is_live INTEGER NOT NULL,
                sequence INTEGER NOT NULL,
                -- The sequence number of its last change (TransactionRecord.lastChanged).
                last_changed INTEGER NOT NULL,
                note_owner BLOB,
                -- A note read sealed (PersonalText.isSealed: its owner's key is not held here,
                -- as on a sync server): its sealed bytes, written back unchanged; NULL otherwise.
                note_sealed BLOB,
                -- The split's ratios and override flag and the split with people as entered
                -- (StoreTransactionRecord.splitRule); NULL when it has neither. The shares are
                -- in transaction_shares, the tags in transaction_tags, the note's text in
                -- transaction_search.
                split_rule BLOB,
                -- When it was recorded, last edited and deleted (milliseconds since 1970, the
                -- events' recordedAt; TransactionRecord): edited_at NULL while never edited,
                -- deleted_at NULL while live (US-018, US-020).
                recorded_at INTEGER NOT NULL,
                edited_at INTEGER,
                deleted_at INTEGER,
                -- The amount as charged in another currency than the wallet's (T7); both NULL
                -- for a transaction in the wallet's currency.
                original_amount INTEGER,
                original_currency TEXT,
                -- The payee (the title a list shows) and the subtitle (Swiff 1.1.2), personal
                -- texts of their owners (P1): NULL text with an owner once redacted (P3), a blob
                -- (its sealed bytes) when read sealed (PersonalText.storeValue).
                payee_owner BLOB,
                payee TEXT,
                subtitle_owner BLOB,
                subtitle TEXT,
                -- What category suggestions learn under (PayeeKey, Flow US-072): the payee
                -- folded, else the note's part before ": "; NULL when there is none or it is
                -- redacted.
                payee_key TEXT) WITHOUT ROWID;
            -- What a search box matches: the note, the payee and the subtitle (personal texts,
            -- P1: removed when their owner is forgotten, P3) and the tags. rowid = the
            -- transaction's sequence number.
            CREATE VIRTUAL TABLE transaction_search USING fts5(
                note, tags, payee, subtitle, transaction_id UNINDEXED, tokenize = 'unicode61 remove_diacritics 2');
            CREATE TABLE transaction_tags (
                transaction_id BLOB NOT NULL,
                tag TEXT NOT NULL,
                position INTEGER NOT NULL,
                PRIMARY KEY (transaction_id, position)) WITHOUT ROWID;
            -- The live transactions summed per viewer, month (yyyymm), wallet, category, kind
            -- and currency, kept by every write: a report by month costs its cells, not its
            -- rows. `viewer` (G7) is X'' for the household's cells (an audit read) and a
            -- person's id for the cells of what that person sees (the payer and every sharer:
            -- Viewer.sees), so a member's report never sums another member's personal entries.
            CREATE TABLE month_totals (
                viewer BLOB NOT NULL,
                month INTEGER NOT NULL,
                wallet_id BLOB NOT NULL,
                category_id BLOB NOT NULL,
                kind INTEGER NOT NULL,
                currency TEXT NOT NULL,
                amount INTEGER NOT NULL,
                count INTEGER NOT NULL,
                PRIMARY KEY (viewer, month, wallet_id, category_id, kind, currency)) WITHOUT ROWID;
            -- The split of a shared transaction (S3): each person's part, in its currency.
            CREATE TABLE transaction_shares (
                transaction_id BLOB NOT NULL,
                person_id BLOB NOT NULL,
                position INTEGER NOT NULL,
                amount INTEGER NOT NULL,
                PRIMARY KEY (transaction_id, person_id)) WITHOUT ROWID;
            -- The settlements (S6), one row each as recorded (they are permanent): who paid
            -- whom, the amount, the business date, the group (NULL: household debts), whether
            -- it was an advance, how it was paid, and the sequence number that recorded it. The
            -- note is a personal text and is not kept here (the debt read model has it).
            CREATE TABLE settlements (
                settlement_id BLOB PRIMARY KEY,
                from_id BLOB NOT NULL,
                to_id BLOB NOT NULL,
                amount INTEGER NOT NULL,
                currency TEXT NOT NULL,
                date INTEGER NOT NULL,
                group_id BLOB,
                is_advance INTEGER NOT NULL,
                payment_method TEXT,
                sequence INTEGER NOT NULL) WITHOUT ROWID;
            CREATE TABLE transfers (
                transfer_id BLOB PRIMARY KEY,
                from_wallet_id BLOB NOT NULL,
                to_wallet_id BLOB NOT NULL,
                amount_sent INTEGER NOT NULL,
                currency_sent TEXT NOT NULL,
                amount_received INTEGER NOT NULL,
                currency_received TEXT NOT NULL,
                date INTEGER NOT NULL,
                is_live INTEGER NOT NULL,
                sequence INTEGER NOT NULL,
                -- The sequence number of its last change (TransferRecord.lastChanged).
                last_changed INTEGER NOT NULL,
                -- The note, a personal text of its owner (P1): NULL text with an owner once
                -- redacted (P3).
                note_owner BLOB,
                note TEXT) WITHOUT ROWID;
            CREATE TABLE wallet_balances (
                wallet_id BLOB PRIMARY KEY,
                name TEXT NOT NULL,
                kind INTEGER NOT NULL,
                -- WalletValuation (W5): 0 tracked, 1 observed.
                valuation INTEGER NOT NULL,
                owner_id BLOB,
                is_active INTEGER NOT NULL,
                closed_on INTEGER,
                balance INTEGER NOT NULL,
                currency TEXT NOT NULL,
                live_transactions INTEGER NOT NULL,
                -- WalletConnectionStatus (Tim Step 2.2): 0 connected, 1 needs re-authentication,
                -- 2 disconnected; NULL: no connection or none set.
                connection_status INTEGER) WITHOUT ROWID;
            CREATE TABLE totals (
                position INTEGER PRIMARY KEY,
                role TEXT NOT NULL CHECK (role IN ('currency', 'base', 'missing')),
                currency TEXT NOT NULL,
                amount INTEGER NOT NULL);
            CREATE TABLE household_debts (
                person_a BLOB NOT NULL,
                person_b BLOB NOT NULL,
                currency TEXT NOT NULL,
                a_owes_b INTEGER NOT NULL,
                PRIMARY KEY (person_a, person_b, currency)) WITHOUT ROWID;
            CREATE TABLE people (
                person_id BLOB PRIMARY KEY,
                name TEXT NOT NULL) WITHOUT ROWID;
            CREATE TABLE categories (
                category_id BLOB PRIMARY KEY,
                name TEXT NOT NULL) WITHOUT ROWID;
            """)
        for index in historyIndexes { try database.execute(sql: "CREATE INDEX \(index.name) ON \(index.on)") }
    }
}
