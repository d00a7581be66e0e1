import ArgumentParser
import Tally
import TallyInterchange
import TallyModel

/// `tally invitations`: the invitations to join the household a person sees (H6, Flow US-005),
/// pending at `--at` (default now: the CLI is the host and may read the clock, G3).
struct InvitationsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "invitations", abstract: "Invitations to join the household (Flow US-005): the pending ones, or all with --all.",
        discussion: "Pending means neither accepted nor cancelled and not expired at --at (default now, UTC). --as a member: the household's invitations (e-mail addresses for the admin only); --as an invitee's person id: their own. Without --as: the audit read.")

    @OptionGroup var location: LedgerLocation
    @OptionGroup var key: KeyOptions
    @OptionGroup var viewer: ViewerOption
    @Option(name: .customLong("at"), help: ArgumentHelp("The time pending is judged at; default now (UTC).", valueName: "YYYY-MM-DDTHH:MM:SSZ"))
    var at: String?
    @Flag(help: "List accepted, cancelled and expired invitations too, with their status.") var all = false
    @Flag(help: "Print JSON.") var json = false

    func run() async throws {
        let path = try location.path()
        let time = try Identifiers.timestamp(at, option: "--at")
        let output = try StoreAccess.read(at: path, encryption: try key.encryption()) { _, history throws -> String in
            // The invitee is not a person of the household yet: --as resolves among invitees too.
            var known = history.namedPeople
            for row in history.invitations(at: time, visibleTo: .audit, all: true) where known[row.personID] == nil {
                known[row.personID] = row.name ?? row.personID.description
            }
            let rows = history.invitations(at: time, visibleTo: try viewer.viewer(among: known), all: all)
            return json ? Self.json(rows).text : Self.text(rows)
        }
        try Terminal.line(output)
    }

    static func text(_ rows: [InvitationRow]) -> String {
        guard !rows.isEmpty else { return "no invitations" }
        var table = TextTable([("Invitee", .left), ("Person", .left), ("E-mail", .left), ("Expires", .left), ("Status", .left), ("Invitation", .left)])
        for row in rows {
            table.add([row.name ?? PersonalText.redactionMarker, row.personID.description, row.email ?? "-", row.expiresAt.description,
                       row.status.rawValue, row.invitationID.description])
        }
        return table.render()
    }

    static func json(_ rows: [InvitationRow]) -> CanonicalJSON {
        .array(rows.map { row in
            .object([
                "invitationID": .string(row.invitationID.description), "personID": .string(row.personID.description),
                "name": row.name.map(CanonicalJSON.string) ?? .null, "email": row.email.map(CanonicalJSON.string) ?? .null,
                "expiresAt": .string(row.expiresAt.description), "status": .string(row.status.rawValue),
            ])
        })
    }
}
