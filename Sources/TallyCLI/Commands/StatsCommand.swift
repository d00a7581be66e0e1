import ArgumentParser
import Foundation
import SystemPackage
import Tally
import TallyInterchange
import TallyJournal
import TallyModel
import TallyProjections

/// `tally stats`: events by type, segments, bytes on disk, compression ratio, checkpoint age, and
/// the read-side store's bytes by table and index.
struct StatsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "stats", abstract: "Journal and event statistics.")

    @OptionGroup var location: LedgerLocation
    @OptionGroup var key: KeyOptions
    @OptionGroup var damage: DamageOption
    @Flag(help: "List the read-side store's bytes by table and index (reads every page).") var store = false
    @Flag(help: "Print JSON.") var json = false

    func run() async throws {
        let path = try location.path()
        let encryption = try key.encryption()
        let history = try LedgerAccess.history(at: path, encryption: encryption, allowDamaged: damage.allowDamaged)
        var counts: [String: Int] = [:]
        var events = try history.eventCursor()
        while let committed = try events.next() { counts[String(describing: committed.event.payload.tag), default: 0] += 1 }
        let layout = LedgerDirectory(FilePath(path))
        var frames = 0
        var stored = 0
        var raw = 0
        do {
            let reader = try JournalReader.open(
                at: layout.journal, encryption: encryption, allowingDamage: damage.allowDamaged)
            try reader.forEachFrame { frame in
                frames += 1
                stored += frame.storedBytes
                raw += frame.rawBytes
                return true
            }
        } catch {
            throw CLIError("\(layout.journal): \(error)")
        }
        let segmentFiles = (try? layout.segmentNames()) ?? []
        let bytesOnDisk = segmentFiles.reduce(Int64(0)) { total, name in
            let size = (try? FileManager.default.attributesOfItem(atPath: layout.journal.appending(name).string)[.size] as? NSNumber)?.int64Value ?? 0
            return total + size
        }
        let ratioPercent = raw == 0 ? 100 : Int((Double(stored) / Double(raw) * 100).rounded())
        let checkpoint = layout.checkpointSequenceNumber(encryption: encryption)
        let age = checkpoint.map { history.lastSequenceNumber - min($0, history.lastSequenceNumber) }
        let storeSizes = layout.storeBytes(byObject: store, encryption: encryption)
        let storeBytes = storeSizes?.total
        let storeObjects = storeSizes?.objects
        if json {
            var storeBytesByObject = CanonicalJSON.null
            if let storeObjects {
                storeBytesByObject = .object(Dictionary(storeObjects.map { ($0.name, CanonicalJSON.integer($0.bytes)) }, uniquingKeysWith: { first, _ in first }))
            }
            let object: CanonicalJSON = .object([
                "events": .integer(Int64(history.eventCount)),
                "eventsByType": .object(counts.mapValues { .integer(Int64($0)) }),
                "segments": .integer(Int64(segmentFiles.count)),
                "frames": .integer(Int64(frames)),
                "bytesOnDisk": .integer(bytesOnDisk),
                "payloadBytesStored": .integer(Int64(stored)),
                "payloadBytesRaw": .integer(Int64(raw)),
                "storedPercentOfRaw": .integer(Int64(ratioPercent)),
                "lastSequenceNumber": .integer(Int64(history.lastSequenceNumber)),
                "checkpointAgeEvents": age.map { .integer(Int64($0)) } ?? .null,
                "storeBytes": storeBytes.map { .integer($0) } ?? .null,
                "storeBytesByObject": storeBytesByObject,
            ])
            try Terminal.line(object.text)
            return
        }
        var table = TextTable([("Event type", .left), ("Count", .right)])
        for (type, count) in counts.sorted(by: { $0.key < $1.key }) { table.add([type, String(count)]) }
        try Terminal.line(table.render())
        try Terminal.line("")
        try Terminal.line("Events: \(history.eventCount), last sequence \(history.lastSequenceNumber)")
        try Terminal.line("Segments: \(segmentFiles.count), frames: \(frames), bytes on disk: \(bytesOnDisk)")
        try Terminal.line("Payload: \(raw) bytes raw, \(stored) stored (\(ratioPercent)% of raw)")
        try Terminal.line("Checkpoint: " + (age.map { "\($0) events behind the journal" } ?? "none"))
        guard let storeBytes else {
            try Terminal.line("Store: none readable (tally rebuild makes one)")
            return
        }
        guard let storeObjects else {
            try Terminal.line("Store: \(storeBytes) bytes in its pages (by table and index: tally stats --store)")
            return
        }
        try Terminal.line("Store: \(storeBytes) bytes in its pages")
        var objects = TextTable([("Table or index", .left), ("Bytes", .right), ("Share", .right)])
        for object in storeObjects {
            let percent = storeBytes == 0 ? 0 : Int((Double(object.bytes) / Double(storeBytes) * 100).rounded())
            objects.add([object.name, String(object.bytes), "\(percent)%"])
        }
        try Terminal.line(objects.render())
    }
}
