// What `import Tally` gives an app (issue 30, Docs/Embedding: "One import"): the engine, and the
// vocabulary, queries and options its API speaks in. The other products (TallyJournal,
// TallySQLiteEncryption, TallyInterchange) are for tools; of them an app needs only the option
// and error types below, re-exported by name so that the journal's own API (frames, segments,
// readers) stays out of an app's namespace.

// Ids, money, dates, events, commands' values (TallyModel); the read models' values
// (TallyProjections: balances, debts, budgets, reports); the store's queries and rows
// (TallyStore: TransactionQuery, the store an observation reads).
@_exported import TallyModel
@_exported import TallyProjections
@_exported import TallyStore

// A ledger's directory.
@_exported import struct SystemPackage.FilePath

// What `LedgerOptions` and `LedgerError` name.
@_exported import enum TallyJournal.DurabilityPolicy
@_exported import struct TallyJournal.JournalEncryption
@_exported import struct TallyJournal.JournalLimits
@_exported import protocol TallyJournal.FileSystem
@_exported import struct TallyJournal.PosixFileSystem
@_exported import enum TallyJournal.JournalError
@_exported import struct TallyJournal.JournalProblem
@_exported import struct TallyJournal.RecoveryReport
