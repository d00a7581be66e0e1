// A writer process for the kill -9 test: appends batches to the journal in the directory given
// as the first argument and prints `ACK <last sequence>` after every acknowledged append.
// Record payloads are derived from their sequence number so the test can check every byte.
import SystemPackage
import TallyJournal

#if canImport(Glibc)
import Glibc
#endif

let arguments = CommandLine.arguments
guard arguments.count >= 3, let seed = UInt64(arguments[2]) else {
    print("usage: JournalCrashWriter <directory> <seed>")
    exit(2)
}
var options = JournalOptions()
options.segmentBytesMax = 8192
do {
    let journal = try Journal.open(at: FilePath(arguments[1]), options: options)
    var state = seed
    while true {
        state = state &* 6364136223846793005 &+ 1442695040888963407
        let count = Int(state >> 60) + 1
        let first = journal.nextSequenceNumber
        let records = (0..<count).map { index in
            let sequence = first + UInt64(index)
            return NewRecord(
                recordedAtMilliseconds: Int64(sequence), typeTag: UInt32(sequence % 7), schemaVersion: 1,
                payload: JournalCrashWriterPayload.bytes(for: sequence))
        }
        let receipt = try await journal.append(records)
        let line = Array("ACK \(receipt.lastSequenceNumber)\n".utf8)
        _ = line.withUnsafeBytes { write(1, $0.baseAddress, $0.count) }
    }
} catch {
    print("ERROR \(error)")
    exit(1)
}
