import ArgumentParser
import Foundation
import SystemPackage
import Tally
import TallyModel
import TallyProjections

/// `tally init`: creates a ledger with its household (the `createHousehold` command).
struct InitCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "init", abstract: "Create a ledger and its household (H1).")

    @OptionGroup var location: LedgerLocation
    @OptionGroup var key: KeyOptions

    @Option(help: "The household's name.") var name: String
    @Option(help: "The base currency (ISO 4217), e.g. CHF.") var currency: String = "CHF"
    @Option(name: .customLong("admin-name"), help: "The admin's name.") var adminName: String
    @Option(name: .customLong("admin-id"), help: "The admin's person id (UUID); generated when absent.") var adminID: String?
    @Option(name: .customLong("household-id"), help: "The household id (UUID); generated when absent.") var householdID: String?
    @Option(name: .customLong("recorded-at"), help: "When the command is recorded (UTC ISO 8601); default now.") var recordedAt: String?

    func run() async throws {
        let path = try location.path()
        try LedgerAccess.settleSwap(at: path)
        if LedgerDirectory(FilePath(path)).holdsLedger() {
            throw CLIError("\(path): a ledger already exists here; use `tally apply` to add to it")
        }
        let baseCurrency: Currency
        do { baseCurrency = try Currency(currency) } catch { throw CLIError("--currency \(currency): \(error)") }
        let admin = try Identifiers.parse(adminID, option: "--admin-id") as PersonID
        let household = try Identifiers.parse(householdID, option: "--household-id") as HouseholdID
        let command = Command(
            commandID: try Identifiers.parse(nil, option: "") as CommandID, actor: admin,
            recordedAt: try Identifiers.timestamp(recordedAt),
            action: .createHousehold(householdID: household, name: name, baseCurrency: baseCurrency, adminName: adminName))
        let ledger = try await LedgerAccess.open(at: path, create: true, encryption: try key.encryption(), chainKey: try key.chainKey())
        let positions: [EventPosition]
        do {
            positions = try await ledger.execute(command)
        } catch {
            try? await ledger.close()
            throw CLIError.ledger(error, at: path)
        }
        try await LedgerAccess.close(ledger, at: path)
        do {
            let line = CanonicalJSON.text(orderedMembers: [
                ("status", .string("ok")), ("ledger", .string(path)), ("householdID", .string(household.description)),
                ("admin", .string(admin.description)),
                ("sequenceNumbers", .array(positions.map { .integer(Int64($0.sequenceNumber)) })),
            ])
            var results = ResultLines()
            results.line(line)
            try results.requireDelivered(outcome: "the ledger was created at \(path)")
        }
    }
}

/// Ids and times supplied by the CLI as the host (G5): parsed from options or generated.
enum Identifiers {
    static func parse<Kind>(_ text: String?, option: String) throws -> Identifier<Kind> {
        guard let text else {
            return (try? Identifier<Kind>(parsing: UUID().uuidString.lowercased())) ?? Identifier(UUIDValue(high: 0, low: 0))
        }
        do { return try Identifier<Kind>(parsing: text) } catch { throw CLIError("\(option) \(text): not a UUID") }
    }

    static func timestamp(_ text: String?, option: String = "--recorded-at") throws -> Timestamp {
        guard let text else {
            return Timestamp(millisecondsSinceEpoch: Int64(Date().timeIntervalSince1970 * 1000))
        }
        do { return try Timestamp(iso8601: text) } catch { throw CLIError("\(option) \(text): expected YYYY-MM-DDTHH:MM:SSZ") }
    }
}
