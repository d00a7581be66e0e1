import ArgumentParser
import Foundation
import Tally
import TallyInterchange
import TallyModel
import TallyProjections

/// `tally subscriptions`: recurring items and subscriptions (R1, Docs/Subscriptions.md): the
/// list with next dates and monthly equivalents, upcoming occurrences, the renewal calendar,
/// billing history; `tally subscriptions post --through DATE` records the due occurrences.
struct SubscriptionsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "subscriptions", abstract: "Subscriptions and recurring items: list, upcoming, calendar, history, post.",
        subcommands: [SubscriptionsListCommand.self, SubscriptionsPostCommand.self], defaultSubcommand: SubscriptionsListCommand.self)
}

/// `tally subscriptions [list]`: the read-only views.
struct SubscriptionsListCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list", abstract: "List subscriptions (default), or --upcoming N, --calendar YYYY-MM, --history ID, --recommendations.")

    @OptionGroup var location: LedgerLocation
    @OptionGroup var key: KeyOptions
    @OptionGroup var damage: DamageOption
    @OptionGroup var on: OnDateOption
    @Option(name: .customLong("upcoming"), help: ArgumentHelp("Billed occurrences from --on through N days later (1...3660).", valueName: "N"))
    var upcoming: Int?
    @Option(name: .customLong("calendar"), help: ArgumentHelp("The renewal calendar of a month.", valueName: "YYYY-MM"))
    var calendar: String?
    @Option(name: .customLong("history"), help: ArgumentHelp("The recorded occurrences of one subscription.", valueName: "ID"))
    var history: String?
    @Flag(help: "Recommendations (Swiff 4.2.3): possible duplicates and the saving of annual plans.") var recommendations = false
    @OptionGroup var viewer: ViewerOption
    @Flag(help: "Print JSON.") var json = false

    func validate() throws {
        let views = [upcoming != nil, calendar != nil, history != nil, recommendations].filter { $0 }.count
        guard views <= 1 else { throw ValidationError("give at most one of --upcoming, --calendar, --history, --recommendations") }
        if let upcoming, !(1...SubscriptionBook.upcomingDaysMax).contains(upcoming) {
            throw ValidationError("--upcoming must be 1...\(SubscriptionBook.upcomingDaysMax), got \(upcoming)")
        }
    }

    func run() async throws {
        let path = try location.path()
        let ledgerHistory = try LedgerAccess.history(at: path, encryption: try key.encryption(), allowDamaged: damage.allowDamaged)
        let date = try on.date
        let book = SubscriptionBook(state: ledgerHistory.state, visibleTo: try viewer.viewer(in: ledgerHistory))
        let text = SubscriptionsText(history: ledgerHistory, json: json)
        if let upcoming {
            try Terminal.line(text.occurrences(book.upcoming(from: date, days: upcoming), title: "Upcoming \(date) + \(upcoming) days"))
        } else if let calendar {
            let month: YearMonth
            do { month = try YearMonth(iso: calendar) } catch { throw CLIError("--calendar \(calendar): expected YYYY-MM") }
            try Terminal.line(text.occurrences(book.calendar(for: month), title: "Renewals \(month)", dayTotals: true))
        } else if recommendations {
            try Terminal.line(Self.recommendations(book.recommendations(on: date), history: ledgerHistory, json: json))
        } else if let history {
            let id: TemplateID
            do { id = try TemplateID(parsing: history) } catch { throw CLIError("--history \(history): not a UUID") }
            guard let billed = book.history(of: id) else { throw CLIError("\(path): no subscription has id \(history)") }
            try Terminal.line(text.history(billed, of: id))
        } else {
            let totals: SubscriptionTotals
            do { totals = try book.totals(on: date, wallets: ledgerHistory.readModels.wallets) } catch { throw CLIError("\(path): \(error)") }
            try Terminal.line(text.list(book.subscriptions(on: date), totals: totals))
        }
    }
}

extension SubscriptionsListCommand {
    /// One line per recommendation, or JSON `[{id,kind,...}]`.
    static func recommendations(_ items: [SubscriptionRecommendation], history: LedgerHistory, json: Bool) -> String {
        func name(_ id: TemplateID) -> String { history.state.templates[id]?.latestDetails.note?.text ?? id.description }
        if json {
            return CanonicalJSON.array(items.map { item in
                switch item.kind {
                case .duplicates(let ids):
                    .object(["id": .string(item.id), "kind": .string("duplicates"), "templateIDs": .array(ids.map { CanonicalJSON($0) })])
                case .annualPlan(let id, let annual, let saving):
                    .object(["id": .string(item.id), "kind": .string("annualPlan"), "templateID": CanonicalJSON(id),
                             "annualAmount": CanonicalJSON(annual), "saving": CanonicalJSON(saving)])
                }
            }).text
        }
        guard !items.isEmpty else { return "No recommendations." }
        return items.map { item in
            switch item.kind {
            case .duplicates(let ids): "duplicate  \(ids.map(name).joined(separator: ", ")): the same name, or category, cycle and price"
            case .annualPlan(let id, let annual, let saving):
                "annual     \(name(id)): \(annual.formatted()) a year; an annual plan (\(SubscriptionRecommendation.annualPlanMonthsPaid) months' price) saves about \(saving.formatted())"
            }
        }.joined(separator: "\n")
    }
}

/// `tally subscriptions post --through DATE`: the `postDueOccurrences` command (R1).
struct SubscriptionsPostCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "post", abstract: "Record every billed occurrence due through DATE that is not recorded yet (idempotent).")

    @OptionGroup var location: LedgerLocation
    @OptionGroup var key: KeyOptions
    @Option(name: .customLong("through"), help: ArgumentHelp("The last occurrence date to post.", valueName: "DATE")) var through: String
    @Option(name: .customLong("actor"), help: ArgumentHelp("The acting member's id; default the household admin.", valueName: "ID")) var actor: String?
    @Option(name: .customLong("command-id"), help: "The command id (UUID); generated when absent.") var commandID: String?
    @Option(name: .customLong("recorded-at"), help: "When the command is recorded (UTC ISO 8601); default now.") var recordedAt: String?

    func run() async throws {
        let path = try location.path()
        let date = try LedgerAccess.date(through, option: "--through")
        let (positions, transactions) = try await LedgerAccess.using(at: path, encryption: try key.encryption()) { ledger in
            let admin = await ledger.state.household?.admin
            let actorID: PersonID
            if let actor {
                actorID = try Identifiers.parse(actor, option: "--actor")
            } else {
                guard let admin else { throw CLIError("\(path): the ledger has no household yet") }
                actorID = admin
            }
            let command = Command(
                commandID: try Identifiers.parse(commandID, option: "--command-id"), actor: actorID,
                recordedAt: try Identifiers.timestamp(recordedAt), action: .postDueOccurrences(through: date))
            let positions = try await ledger.execute(command)
            guard let first = positions.first, let last = positions.last else { return (positions, [TransactionID]()) }
            let events = try await ledger.events(from: first.sequenceNumber, through: last.sequenceNumber)
            let transactions: [TransactionID] = events.compactMap { committed in
                if case .templateActivated(let activated) = committed.event.payload { activated.transactionID } else { nil }
            }
            return (positions, transactions)
        }
        var results = ResultLines()
        results.line(CanonicalJSON.text(orderedMembers: [
            ("status", .string("ok")), ("through", .string(date.isoString)), ("posted", .integer(Int64(transactions.count))),
            ("transactionIDs", .array(transactions.map { .string($0.description) })),
            ("sequenceNumbers", .array(positions.map { .integer(Int64($0.sequenceNumber)) })),
        ]))
        try results.requireDelivered(outcome: "\(transactions.count) occurrence(s) were recorded")
    }
}
