import Foundation
import TallyModel

/// The server's tables key households, devices and people by Foundation's `UUID`; the engine by
/// its own identifiers. The same 16 bytes either way.
extension UUIDValue {
    init(_ uuid: UUID) {
        let bytes = withUnsafeBytes(of: uuid.uuid) { Array($0) }
        var high: UInt64 = 0, low: UInt64 = 0
        for byte in bytes[0..<8] { high = high << 8 | UInt64(byte) }
        for byte in bytes[8..<16] { low = low << 8 | UInt64(byte) }
        self.init(high: high, low: low)
    }

    var uuid: UUID {
        var bytes = [UInt8](repeating: 0, count: 16)
        for index in 0..<8 {
            bytes[index] = UInt8(truncatingIfNeeded: high >> UInt64(56 - 8 * index))
            bytes[8 + index] = UInt8(truncatingIfNeeded: low >> UInt64(56 - 8 * index))
        }
        return UUID(uuid: (bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
                           bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]))
    }
}
