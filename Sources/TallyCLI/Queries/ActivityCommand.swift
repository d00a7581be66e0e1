import ArgumentParser
import Tally
import TallyInterchange
import TallyModel
import TallyProjections

/// `tally activity`: the household's commands, newest first (Docs/Queries.md "Activity
/// feed"): who, what, when, and whether an undo or redo would be accepted now (T5).
struct ActivityCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "activity", abstract: "List the household's commands, newest first: who, what, when, undoable.",
        discussion: "Reads the journal without the writer lock (a writer may run beside it), backwards for the page. The last line names the --before cursor of the next (older) page.")

    @OptionGroup var location: LedgerLocation
    @OptionGroup var key: KeyOptions
    @Option(name: .customLong("limit"), help: ArgumentHelp("Entries per page, 1...\(ActivityQuery.limitMax).", valueName: "N"))
    var limit = 50
    @Option(name: .customLong("before"), help: ArgumentHelp("The cursor a previous page printed.", valueName: "CURSOR"))
    var before: String?
    @OptionGroup var viewer: ViewerOption
    @Flag(help: "Print JSON: {\"entries\":[...],\"next\":CURSOR|null}.") var json = false

    func run() async throws {
        let cursor = try before.map { text throws -> ActivityCursor in
            guard let cursor = ActivityCursor(text) else { throw CLIError("--before \(text): not a cursor printed by `tally activity`") }
            return cursor
        }
        let path = try location.path()
        let page: ActivityPage
        do {
            let history = try LedgerAccess.history(at: path, encryption: try key.encryption())
            var query = ActivityQuery(visibleTo: try viewer.viewer(in: history))
            query.limit = limit
            query.before = cursor
            page = try history.activity(query)
        } catch let error as InterchangeError {
            throw CLIError.interchange(error, at: path)
        }
        try Terminal.line(json ? Self.json(page) : Self.table(page))
    }

    /// `undoable`, `redoable` or `unavailable` (the JSON `undo.state`).
    static func state(_ undo: ActivityEntry.Undo) -> String {
        switch undo {
        case .undoable: "undoable"
        case .redoable: "redoable"
        case .unavailable: "unavailable"
        }
    }

    /// The table's Undo column: the state, `-` when unavailable (the reason is in `--json`).
    static func mark(_ undo: ActivityEntry.Undo) -> String {
        if case .unavailable = undo { return "-" }
        return state(undo)
    }

    static func table(_ page: ActivityPage) -> String {
        var table = TextTable([("Seq", .right), ("Recorded (UTC)", .left), ("By", .left), ("What", .left), ("Undo", .left)])
        for entry in page.entries {
            var what = entry.events.map(\.eventName).joined(separator: ", ")
            if let target = entry.target { what += " of \(target)" }
            if entry.isUndone { what += " (undone)" }
            table.add([
                String(entry.sequenceNumbers.lowerBound), entry.recordedAt.description, entry.actorName ?? entry.actor.description,
                what, mark(entry.undo),
            ])
        }
        return [table.render(), page.next.map { "more: --before \($0)" } ?? "end of history"].joined(separator: "\n")
    }

    static func json(_ page: ActivityPage) -> String {
        let entries: [CanonicalJSON] = page.entries.map { entry in
            var undo: [String: CanonicalJSON] = ["state": .string(state(entry.undo))]
            if case .unavailable(let reason) = entry.undo { undo["reason"] = .string(reason) }
            return .object([
                "commandID": .string(entry.commandID.description), "actorID": .string(entry.actor.description),
                "actorName": entry.actorName.map(CanonicalJSON.string) ?? .null, "recordedAt": .string(entry.recordedAt.description),
                "firstSequenceNumber": .integer(Int64(clamping: entry.sequenceNumbers.lowerBound)),
                "lastSequenceNumber": .integer(Int64(clamping: entry.sequenceNumbers.upperBound)),
                "events": .array(entry.events.map { .string($0.eventName) }), "entities": .array(entry.entities.map(CanonicalJSON.string)),
                "target": entry.target.map { .string($0.description) } ?? .null, "isUndone": .bool(entry.isUndone), "undo": .object(undo),
            ])
        }
        return CanonicalJSON.object(["entries": .array(entries), "next": page.next.map { .string($0.description) } ?? .null]).text
    }
}
