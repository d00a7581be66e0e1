import ArgumentParser
import Tally
import TallyInterchange
import TallyModel
import TallyProjections

/// `tally log`: the events, as an aligned table or JSON Lines, with filters.
struct LogCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "log", abstract: "List events as a table or JSON Lines.")

    @OptionGroup var location: LedgerLocation
    @OptionGroup var key: KeyOptions
    @OptionGroup var damage: DamageOption
    @Option(help: ArgumentHelp("First sequence number.", valueName: "SEQ")) var from: UInt64?
    @Option(help: ArgumentHelp("Last sequence number.", valueName: "SEQ")) var to: UInt64?
    @Option(help: ArgumentHelp("Recorded on or after this UTC date.", valueName: "DATE")) var since: String?
    @Option(help: ArgumentHelp("Recorded on or before this UTC date.", valueName: "DATE")) var until: String?
    @Option(help: ArgumentHelp("Only this event type (e.g. transactionRecorded).", valueName: "TYPE")) var type: String?
    @Option(help: ArgumentHelp("Only events about this wallet (name or id).", valueName: "WALLET")) var wallet: String?
    @Option(help: ArgumentHelp("Only events by or about this person (name or id).", valueName: "PERSON")) var person: String?
    @Flag(help: "Print JSON Lines.") var json = false

    func run() async throws {
        let path = try location.path()
        let history = try LedgerAccess.history(at: path, through: to, encryption: try key.encryption(), allowDamaged: damage.allowDamaged)
        let sinceDate = try since.map { try LedgerAccess.date($0, option: "--since") }
        let untilDate = try until.map { try LedgerAccess.date($0, option: "--until") }
        if let type, !EventTag.allCases.contains(where: { String(describing: $0) == type }) {
            throw CLIError("--type \(type): not an event type; one of " + EventTag.allCases.map { String(describing: $0) }.joined(separator: ", "))
        }
        let walletID = try wallet.map { name in
            try QueryOptions.resolve(name, "--wallet", history.state.wallets.map { (id: $0.key, name: $0.value.name) })
        }
        let personID = try person.map { name in
            try history.person(name, option: "--person")
        }
        var table = TextTable([("Seq", .right), ("Recorded", .left), ("Type", .left), ("By", .left), ("Summary", .left)])
        var events = try history.eventCursor()
        while let committed = try events.next() {
            if let from, committed.sequenceNumber < from { continue }
            let event = committed.event
            let recorded = (try? event.recordedAt.utcDate()) ?? .min
            if let sinceDate, recorded < sinceDate { continue }
            if let untilDate, recorded > untilDate { continue }
            if let type, String(describing: event.payload.tag) != type { continue }
            let description = EventDescription(event.payload, history: history)
            if let walletID, !description.wallets.contains(walletID) { continue }
            if let personID, event.actor != personID, !description.people.contains(personID) { continue }
            if json {
                try Terminal.line(CanonicalJSON.text(orderedMembers: [
                    ("sequenceNumber", .integer(Int64(clamping: committed.sequenceNumber))),
                    ("recordedAt", .string(event.recordedAt.iso8601)),
                    ("type", .string(String(describing: event.payload.tag))),
                    ("commandID", .string(event.commandID.description)),
                    ("actor", .string(event.actor.description)),
                    ("summary", .string(description.summary)),
                ]))
            } else {
                table.add([String(committed.sequenceNumber), event.recordedAt.iso8601, String(describing: event.payload.tag),
                           history.personName(event.actor), description.summary])
            }
        }
        if !json { try Terminal.line(table.render()) }
    }
}
