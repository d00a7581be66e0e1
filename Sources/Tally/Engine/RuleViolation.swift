/// Why a command was rejected: a stable code, the rule (Docs/Domain.md) it enforces and a message naming
/// the values involved (the amount owed, the blocking event...).
public struct RuleViolation: Sendable, Equatable, Error {
    /// The stable code; its raw value is what hosts and the CLI print.
    public let code: Code
    /// A message a user can act on.
    public let message: String
    /// The position (0-based) of the rejected command in the batch passed to `execute`.
    public internal(set) var commandIndex = 0

    /// Creates a violation.
    public init(code: Code, message: String) {
        self.code = code
        self.message = message
    }

    /// The rule id (Docs/Domain.md) the code enforces.
    public var rule: String { code.rule }

    /// Every rejection the engine can produce. Raw values are stable; never rename one.
    public enum Code: String, Sendable, CaseIterable {
        // General (G5, G6, G7)
        /// No household exists yet; the first command must be `createHousehold`.
        case noHousehold
        /// `createHousehold` was sent to a ledger that already has one.
        case householdExists
        /// The acting person is not an active member (G7).
        case unknownActor
        /// An id supplied for a new entity is already in use (G5).
        case duplicateID
        /// A required name is empty.
        case nameRequired
        /// The same command id was executed before (G5: ids are unique).
        case duplicateCommandID
        /// A value outside what the model can represent (overflow, bad date arithmetic).
        case invalidValue
        /// A note, tag or list longer than its ``LedgerLimits`` bound; the message names the
        /// field, its size and the limit (G6).
        case inputTooLarge
        /// The household holds as many live entities of a kind as the host allows
        /// (``LedgerOptions/entityLimits``): remove one, or have the host raise the limit (G6).
        case entityLimitReached
        /// A balance, debt, budget, group or converted total could pass the ``LedgerLimits``
        /// bound on sums (`currencyExposureMinorUnitsMax`, `convertedExposureMinorUnitsMax`) (G1).
        case totalOutOfRange
        /// A currency that is not an active ISO 4217 code (`BTC`, `ZZZ`) (G1).
        case unknownCurrency
        // Household and people (H1-H5)
        /// Base currency cannot change after the first transaction (H2).
        case currencyLocked
        /// The person is not known to the household (H3).
        case unknownPerson
        /// The person is not an active member (H3).
        case notAMember
        /// The member has unsettled debt and the command did not acknowledge it (H4).
        case unsettledDebt
        /// The admin cannot leave or be removed (H5).
        case adminCannotLeave
        /// Only the admin may do this (H5).
        case adminOnly
        /// The person is archived already (H3).
        case personArchived
        /// The person is not archived, so there is nothing to take back (H3).
        case personNotArchived
        /// An e-mail address or phone number that is not one (H3).
        case invalidContact
        // Personal data (P1-P4, Docs/Security.md)
        /// The person was forgotten already, or a new person reuses a forgotten person's id (P3).
        case personForgotten
        /// Only removed members and contacts can be forgotten (P3).
        case forgetActiveMember
        // Wallets (W1-W6)
        /// Another wallet has this name, ignoring case (W2).
        case walletNameTaken
        /// No wallet has this id (W1).
        case unknownWallet
        /// The wallet is deactivated or closed (W4).
        case walletInactive
        /// The wallet is deactivated already, or active already (W4).
        case walletStateUnchanged
        /// A wallet's kind can change only while it has no transactions (W4).
        case walletHasTransactions
        /// A wallet can close only with a zero balance (W4).
        case walletBalanceNotZero
        /// Live goals count the wallet being closed; `acknowledgeGoals` confirms (W4, R2; Drishti E6-S2).
        case walletUsedByGoals
        /// An amount is in a different currency than its wallet (W1, W6).
        case currencyMismatch
        /// A transfer must move money between two different wallets (W6).
        case transferToSameWallet
        /// A transfer in one currency must send and receive the same amount (W6).
        case transferAmountsDiffer
        /// No transfer has this id, or it is deleted already (W6).
        case unknownTransfer
        /// The wallet has no balance point on that date (W5).
        case unknownBalancePoint
        // Categories (C1-C3)
        /// Another category has this name, ignoring case (C2).
        case categoryNameTaken
        /// No category has this id (C1).
        case unknownCategory
        /// The category is deactivated (C3).
        case categoryInactive
        /// The category is deactivated already, or active already (C3).
        case categoryStateUnchanged
        /// Preset categories cannot be deleted (C2).
        case presetCategoryCannotBeDeleted
        /// A category with transactions can only be deactivated or reassigned (C3).
        case categoryHasTransactions
        /// A category that group expenses are filed under cannot be deleted, not even with a
        /// reassignment target; deactivate it or re-file the expenses (C3, Docs/Editing.md).
        case categoryHasGroupExpenses
        /// The category's group does not match (income vs expense) (T1, C3).
        case categoryGroupMismatch
        /// Shared transactions need a shareable category (C1).
        case categoryNotShareable
        /// A reordering lists a category twice, or none (C1).
        case categoryListedTwice
        // Transactions and templates (T1-T5)
        /// Amounts are entered positive (T1).
        case amountMustBePositive
        /// No transaction has this id (T1).
        case unknownTransaction
        /// A transaction covered by a settlement cannot be edited or deleted (T2).
        case editOfSettledTransaction
        /// The transaction is deleted; restore it first (T3).
        case transactionDeleted
        /// The transaction is not deleted, so it cannot be restored (T3).
        case transactionNotDeleted
        /// The item has a file with this digest attached already (T6).
        case attachmentExists
        /// No file with this digest is attached to the item (T6).
        case unknownAttachment
        /// The item has ``LedgerLimits/attachmentsPerItemMax`` files attached already (T6).
        case attachmentsFull
        /// An attachment's name is empty, its size outside 1...``LedgerLimits/attachmentBytesMax``
        /// or its media type not of the form `type/subtype` (T6).
        case attachmentInvalid
        /// A transaction's `originalAmount` is in its wallet's currency, or given on a template
        /// (T7: it records a charge in another currency, on a transaction).
        case originalAmountInvalid
        /// `setSharingAcceptance` names someone the item is not shared with, or answers for
        /// another member (R1, Swiff 1.1.2 SharedSubscription).
        case sharingAcceptanceInvalid
        /// No template has this id (T4).
        case unknownTemplate
        /// The template is paused, or already running (T4).
        case templateStateUnchanged
        /// The date is not an occurrence of the template (T4).
        case notAnOccurrence
        // Recurring items and subscriptions (R1)
        /// An end date before the anchor, both an end date and a count, a trial ending on or
        /// before the anchor, a price change before the anchor, a resume before its pause (R1).
        case recurringTermsInvalid
        /// The template is cancelled; its history stays (R1).
        case templateCancelled
        /// The occurrence is already recorded, or a change would reach back over a recorded one (R1).
        case occurrenceAlreadyPosted
        /// No command has this id (T5).
        case unknownCommand
        /// The command produced an event that has no compensating event (T5).
        case notUndoable
        /// A later event depends on the command (T5); the message names it.
        case undoBlocked
        /// The command is undone already (T5).
        case alreadyUndone
        /// Only an undone command can be redone (T5).
        case notUndone
        /// A sample is loaded already: clear it first (E5-S6, T5).
        case sampleDataLoaded
        /// No sample data is loaded, so there is nothing to clear (E5-S6, T5).
        case noSampleData
        /// `loadSampleData` names a command that was not executed, is listed twice, is an undo or
        /// redo, is undone, or cannot be undone (E5-S6, T5): the message says which.
        case sampleCommandInvalid
        // Sharing (S1-S8)
        /// Split ratios must sum to exactly 10000 bp (S1, S2, S7).
        case splitRatiosMustSumTo100
        /// Every member needs at least 100 bp (1%) (S1).
        case splitRatioBelowMinimum
        /// The ratio must list every current member exactly once (S1).
        case splitRatioMembersMismatch
        /// A shared transaction needs at least two members (S2).
        case sharingNeedsTwoMembers
        /// A settlement exceeds what is owed and is not marked as an advance (S6).
        case settlementExceedsDebt
        /// A settlement names an item that is not an open debt between the two people (S6).
        case settlementItemInvalid
        /// Payer and payee of a settlement are the same person (S6).
        case settlementToSelf
        /// No group has this id (S7).
        case unknownGroup
        /// A group needs at least two distinct members (S7).
        case groupNeedsTwoMembers
        /// Someone in the split or the payer is not in the group (S7).
        case notInGroup
        /// Exact split amounts must sum to the total (S7).
        case exactSplitMustSumToTotal
        /// Share weights must be positive (S7).
        case invalidShares
        /// The person is in the group already (S7).
        case alreadyInGroup
        /// The group is archived: no new expenses or members (S7).
        case groupArchived
        /// The group is archived already, or not archived (S7).
        case groupStateUnchanged
        /// No group expense has this id (S7).
        case unknownGroupExpense
        /// The group expense is deleted (S7).
        case groupExpenseDeleted
        /// The group expense is marked settled already, or is not marked (S7).
        case groupExpenseStateUnchanged
        /// The group expense is covered by a settlement or marked settled: it cannot be edited
        /// or deleted (S8, Docs/Editing.md "Group expenses").
        case groupExpenseSettled
        /// An edit or deletion would change the balance of a person who left the group (S8).
        case groupExpenseNamesFormerMember
        /// A member with a non-zero group balance cannot leave, and a group with one cannot be
        /// deleted; the message names the person and the amount (S8).
        case groupBalanceNotSettled
        // Budgets (B1-B7)
        /// Payday must be a day 1...31 (B1).
        case paydayOutOfRange
        /// Budget amounts cannot be negative (B2).
        case budgetMustNotBeNegative
        /// The category has no allocation in force from that period, so none can be removed (B2).
        case budgetNotAllocated
        /// There is no ended period to close, or no payday is set (B6).
        case noPeriodToClose
        /// The recorded time is so far after the open period that too many periods would close (B6).
        case periodGapTooLarge
        /// Grace days must be 0...31 and incomes non-negative (B7).
        case invalidIncomeSettings
        /// Only income transactions can be confirmed as a bonus (B7).
        case notAnIncome
        /// The income is not in the bonus pool: mark it as a bonus first (B7, US-066).
        case notABonus
        /// The bonus's 7 days are over and its rest became regular income (B7, US-066).
        case bonusRolledIn
        /// The allocation is more than the bonus has left, or the mark cannot come off while
        /// allocations stand (B7, US-066).
        case bonusOverAllocated
        // Planning (R2, R3, R6)
        /// No live goal has that id (R2).
        case unknownGoal
        /// A goal's target, wallets or amount are not usable: the message says which (R2).
        case goalInvalid
        /// No saved scenario has that id (R3).
        case unknownScenario
        /// A scenario's amounts are not in the base currency, or it has too many lump sums (R3).
        case scenarioInvalid
        /// Alert thresholds, day counts or the large-transaction amount are out of range (R6).
        case alertSettingsInvalid
        /// No saved CSV import mapping has that name (section 9).
        case unknownImportMapping
        /// A CSV import mapping names an unknown field, a field or a file category twice, or an
        /// empty header (section 9).
        case importMappingInvalid
        /// No saved view with that id is the actor's, or shared with them to run (Flow US-058, G7).
        case unknownView
        /// A saved view's filter or report is not usable: the message says which (Flow US-058).
        case viewInvalid
        /// The view is another member's: only its owner changes it (Flow US-058, G7).
        case viewNotOwned
        /// No invitation has that id (H6, Flow US-005).
        case unknownInvitation
        /// The invitation was cancelled, accepted, or expired: the message says which and when (H6).
        case invitationNotPending
        /// A pending invitation names that person id already; cancel it or wait for it (H6).
        case alreadyInvited
        /// Only the invitee (the invitation's person id) accepts an invitation (H6).
        case notInvitee

        // Sync (issue 32, P1)
        /// A synced command's sealed texts do not fit it: one too many or missing, a kept text
        /// where the field held none, or a text sealed for another owner than the field's (P1;
        /// Docs/Sync.md "Sealed texts in commands").
        case sealedTextsMismatch

        /// The rule id (Docs/Domain.md) this code enforces.
        public var rule: String {
            switch self {
            case .noHousehold, .householdExists: "H1"
            case .unknownActor: "G7"
            case .duplicateID, .duplicateCommandID: "G5"
            case .nameRequired, .invalidValue, .inputTooLarge, .entityLimitReached: "G6"
            case .totalOutOfRange, .unknownCurrency: "G1"
            case .currencyLocked: "H2"
            case .unknownPerson, .notAMember, .personArchived, .personNotArchived, .invalidContact: "H3"
            case .unsettledDebt: "H4"
            case .personForgotten, .forgetActiveMember: "P3"
            case .sealedTextsMismatch: "P1"
            case .adminCannotLeave, .adminOnly: "H5"
            case .walletNameTaken: "W2"
            case .unknownBalancePoint: "W5"
            case .unknownWallet: "W1"
            case .walletInactive, .walletStateUnchanged, .walletHasTransactions, .walletBalanceNotZero, .walletUsedByGoals: "W4"
            case .currencyMismatch, .transferToSameWallet, .transferAmountsDiffer, .unknownTransfer: "W6"
            case .categoryNameTaken, .presetCategoryCannotBeDeleted: "C2"
            case .unknownCategory, .categoryNotShareable, .categoryListedTwice: "C1"
            case .categoryInactive, .categoryStateUnchanged, .categoryHasTransactions, .categoryHasGroupExpenses: "C3"
            case .categoryGroupMismatch, .amountMustBePositive, .unknownTransaction: "T1"
            case .editOfSettledTransaction: "T2"
            case .transactionDeleted, .transactionNotDeleted: "T3"
            case .attachmentExists, .unknownAttachment, .attachmentsFull, .attachmentInvalid: "T6"
            case .originalAmountInvalid: "T7"
            case .unknownTemplate, .templateStateUnchanged, .notAnOccurrence: "T4"
            case .recurringTermsInvalid, .templateCancelled, .occurrenceAlreadyPosted, .sharingAcceptanceInvalid: "R1"
            case .unknownCommand, .notUndoable, .undoBlocked, .alreadyUndone, .notUndone, .sampleDataLoaded, .noSampleData,
                 .sampleCommandInvalid: "T5"
            case .splitRatiosMustSumTo100, .splitRatioBelowMinimum, .splitRatioMembersMismatch: "S1"
            case .sharingNeedsTwoMembers: "S2"
            case .settlementExceedsDebt, .settlementItemInvalid, .settlementToSelf: "S6"
            case .unknownGroup, .groupNeedsTwoMembers, .notInGroup, .exactSplitMustSumToTotal, .invalidShares,
                 .alreadyInGroup, .groupArchived, .groupStateUnchanged, .unknownGroupExpense, .groupExpenseDeleted,
                 .groupExpenseStateUnchanged: "S7"
            case .groupBalanceNotSettled, .groupExpenseSettled, .groupExpenseNamesFormerMember: "S8"
            case .paydayOutOfRange: "B1"
            case .budgetMustNotBeNegative, .budgetNotAllocated: "B2"
            case .noPeriodToClose, .periodGapTooLarge: "B6"
            case .invalidIncomeSettings, .notAnIncome, .notABonus, .bonusRolledIn, .bonusOverAllocated: "B7"
            case .unknownGoal, .goalInvalid: "R2"
            case .unknownScenario, .scenarioInvalid: "R3"
            case .alertSettingsInvalid: "R6"
            case .unknownImportMapping, .importMappingInvalid: "§9"
            case .unknownView, .viewInvalid, .viewNotOwned: "R4"
            case .unknownInvitation, .invitationNotPending, .alreadyInvited, .notInvitee: "H6"
            }
        }
    }
}
