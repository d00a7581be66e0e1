/// The canonical byte form of backup fields that the backup's hash chain and checksum cover
/// (Docs/Interchange.md): integers as 8 bytes big-endian, strings as their UTF-8 length
/// (8 bytes big-endian) then the bytes, an optional string as a presence byte then the string.
/// Independent of JSON formatting, so a backup verifies on any platform's JSON encoder.
struct BackupCanonicalBytes {
    private(set) var bytes: [UInt8] = []

    mutating func append(_ value: UInt64) {
        for shift in stride(from: 56, through: 0, by: -8) { bytes.append(UInt8(truncatingIfNeeded: value >> UInt64(shift))) }
    }

    mutating func append(_ text: String) {
        append(UInt64(text.utf8.count))
        bytes.append(contentsOf: text.utf8)
    }

    mutating func append(optional text: String?) {
        guard let text else { bytes.append(0); return }
        bytes.append(1)
        append(text)
    }
}
