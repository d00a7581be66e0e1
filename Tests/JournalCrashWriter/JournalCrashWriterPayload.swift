/// The payload the crash writer stores for a sequence number (the test recomputes it).
enum JournalCrashWriterPayload {
    static func bytes(for sequence: UInt64) -> [UInt8] {
        let length = Int(sequence % 97)
        return (0..<length).map { UInt8(truncatingIfNeeded: sequence &* 31 &+ UInt64($0)) }
    }
}
