import Foundation
import Tally

/// A host program that embeds the engine the way an app's screens do (Sources/Tally/Tally.docc/Embedding.md).
///
/// It opens a ledger, then shows the balances, a transaction list (the first page and the
/// next one by cursor), day totals and a category x month report using only the engine's
/// observation (``Ledger/observe(_:)``) and queries (``Ledger/transactions(_:)``,
/// ``Ledger/dayTotals(_:)``, ``Ledger/categoryTotals(byMonth:)``). It folds no event of its own
/// and keeps no copy of a name: what it prints comes from the read-side store, so a ledger
/// with a long history shows as fast as a new one, and a forgotten person's name comes back
/// as `[redacted]`. The balances are observed: the example prints the current value, records
/// one expense (``RepeatedExpense``) and prints the value the observation delivers after it.
///
///     swift run -c release TallyHostExample                          # Sources/TallyCLI/Demo/household.jsonl
///     swift run -c release TallyHostExample path/to/commands.jsonl   # into a temporary ledger
///     swift run -c release TallyHostExample path/to/ledger           # an existing ledger, in place
///
/// A ledger directory is opened in place and the example's expense is recorded in it: give it
/// a copy to keep the original unchanged. Sources/Tally/Tally.docc/Embedding.md says how to run it on a ledger of a
/// million events made by `tally-scale`. Exit status: 0, 1 when the ledger or a command failed,
/// 2 for a usage error. The output has no clock-dependent text (the CLI tests compare it).
@main
struct HostExample {
    static func main() async {
        do {
            let arguments = try HostArguments(CommandLine.arguments.dropFirst())
            if arguments.showsHelp {
                print(HostArguments.usage)
                return
            }
            try await run(arguments)
        } catch {
            FileHandle.standardError.write(Data("TallyHostExample: \(error)\n".utf8))
            exit(error.exitStatus)
        }
    }

    static func run(_ arguments: HostArguments) async throws(HostExampleError) {
        let opened = try await LedgerSource(path: arguments.ledgerPath).open()
        print("Ledger: \(opened.summary), \(await opened.ledger.lastSequenceNumber) events")
        do {
            let person = try await signedIn(arguments.person, in: opened.ledger)
            print("Signed in as \(person.name ?? "\(person.personID)") (\(person.role.rawValue)): every screen shows what they see (G7)")
            try await showBalancesAcrossOneCommand(opened.ledger, viewer: person.viewer)
            try await HostExampleError.wrapping { () async throws(LedgerError) in
                for line in try await TransactionListScreen(ledger: opened.ledger, viewer: person.viewer, pageSize: arguments.pageSize).lines() { print(line) }
                for line in try await CategoryMonthReport(ledger: opened.ledger, viewer: person.viewer).lines() { print(line) }
            }
        } catch {
            await opened.discard()
            throw error
        }
        try await opened.close()
    }

    /// The person the screens are for: the one named `name`, or the household's admin.
    static func signedIn(_ name: String?, in ledger: Ledger) async throws(HostExampleError) -> PersonRow {
        let people = await ledger.people()
        guard let person = name.map({ name in people.first { $0.name == name } }) ?? people.first(where: { $0.role == .admin }) else {
            throw .usage(name.map { "--as \($0): no person has that name; known: \(people.compactMap(\.name).joined(separator: ", "))" } ?? "the ledger has no household yet")
        }
        return person
    }

    /// Observes the balances screen: prints the current value, records the newest expense
    /// again, and prints the next value the observation delivers.
    ///
    /// The repeated expense adds a live transaction to a wallet, so the observed value changes
    /// (even for a wallet whose balance is observed rather than summed, W5) and the second
    /// `next()` returns; the stream ends with the ledger.
    static func showBalancesAcrossOneCommand(_ ledger: Ledger, viewer: Viewer) async throws(HostExampleError) {
        var balances = await ledger.observe { db in try BalanceScreen(store: db, viewer: viewer) }.makeAsyncIterator()
        let current = try await next(&balances, waitingFor: "the current balances")
        print("Balances (observed)")
        for line in current.lines() { print(line) }
        guard let expense = try await HostExampleError.wrapping({ () async throws(LedgerError) in try await RepeatedExpense.newest(on: ledger, visibleTo: viewer) }) else {
            print("No expense to repeat: nothing executed")
            return
        }
        try await HostExampleError.wrapping { () async throws(LedgerError) in try await ledger.execute(expense.command) }
        print("Executed: \(expense.summary)")
        let updated = try await next(&balances, waitingFor: "the balances after the command")
        print("Balances (observed after the command)")
        for line in updated.lines() { print(line) }
    }

    private static func next(
        _ values: inout AsyncThrowingStream<BalanceScreen, any Error>.Iterator, waitingFor description: String
    ) async throws(HostExampleError) -> BalanceScreen {
        let value: BalanceScreen?
        do {
            value = try await values.next()
        } catch let error as LedgerError {
            throw .ledger(error)
        } catch {
            throw .ledger(.readSide("\(error)"))
        }
        guard let value else { throw .observationEnded(waitingFor: description) }
        return value
    }
}
