import TallyJournal

/// The intent record of a swap (``LedgerDirectory/swapIntent``, `.<name>.swap` beside the
/// ledger; Docs/Interchange.md, "Restore over an existing ledger").
///
/// A restore or reset writes it (temporary file, fsync, rename, fsync of the parent) once the
/// ledger it built in ``LedgerDirectory/restoring`` audited clean and that folder was synced,
/// and before its first rename; it removes it after its last. While the record exists the
/// restoring folder is complete and the swap is committed: whoever opens the path next
/// finishes it (``Ledger/recoverInterruptedSwap(at:fileSystem:)``).
///
/// Four lines of ASCII text. The folder names derive from the target's, so the record stores
/// none: only what was done and the number `N` of `<name>.replaced-N` (0 when nothing was set
/// aside: a restore into an empty target). The last line is the CRC32C of the lines before it.
///
/// ```
/// tally.swap 1
/// operation reset
/// aside 2
/// crc32c 0a1b2c3d
/// ```
package struct SwapIntent: Sendable, Hashable {
    /// What the swap puts into place.
    package enum Operation: String, Sendable, Hashable {
        /// A backup restored (`Ledger.restore`, `tally import backup`).
        case restore
        /// A new ledger keeping chosen facts (`LedgerReset`, `tally reset`).
        case reset
    }

    /// What the swap puts into place.
    package var operation: Operation
    /// The `N` of the `<name>.replaced-N` folder the old ledger is renamed to; nil when the
    /// target held no ledger.
    package var asideNumber: Int?

    /// The largest record a reader accepts (a written one is under 80 bytes).
    package static let bytesMax = 256
    /// The first line, with the format version.
    static let header = "tally.swap 1"

    /// The record.
    package init(operation: Operation, asideNumber: Int?) {
        self.operation = operation
        self.asideNumber = asideNumber
    }

    /// The record's bytes.
    package func encoded() -> [UInt8] {
        let body = "\(Self.header)\noperation \(operation.rawValue)\naside \(asideNumber ?? 0)\n"
        let checksum = CRC32C.checksum(Array(body.utf8))
        return Array((body + "crc32c " + Self.hex(checksum) + "\n").utf8)
    }

    /// The record in `bytes`, or nil when they are not one this version wrote (damaged,
    /// truncated, another format, a checksum that does not match).
    package static func decode(_ bytes: [UInt8]) -> SwapIntent? {
        guard bytes.count <= bytesMax, bytes.allSatisfy({ $0 < 0x80 }) else { return nil }
        let text = String(decoding: bytes, as: UTF8.self)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        guard lines.count == 5, lines[4].isEmpty, lines[0] == header else { return nil }
        let body = lines[0..<3].joined(separator: "\n") + "\n"
        guard lines[3] == "crc32c " + hex(CRC32C.checksum(Array(body.utf8))) else { return nil }
        guard lines[1].hasPrefix("operation "), lines[2].hasPrefix("aside "),
              let operation = Operation(rawValue: String(lines[1].dropFirst("operation ".count))) else { return nil }
        let digits = String(lines[2].dropFirst("aside ".count))
        guard let number = Int(digits), number >= 0, String(number) == digits else { return nil }
        return SwapIntent(operation: operation, asideNumber: number == 0 ? nil : number)
    }

    /// Eight lowercase hex digits.
    private static func hex(_ value: UInt32) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 8 - digits.count) + digits
    }
}
