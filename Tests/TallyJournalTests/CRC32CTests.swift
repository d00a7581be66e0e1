import CTallyCRC32C
import TallyJournal
import TallyTestSupport
import Testing

@Suite("CRC32C")
struct CRC32CTests {
    @Test("the standard check value of \"123456789\" is 0xE3069283")
    func checkValue() {
        #expect(CRC32C.checksum(Array("123456789".utf8)) == 0xE306_9283)
        #expect(CRC32C.checksum([]) == 0)
        #expect(CRC32C.checksum([UInt8](repeating: 0, count: 32)) == 0x8A91_36AA)
    }

    @Test("hardware and table paths agree on every length and alignment")
    func hardwareMatchesTable() {
        var random = SeededRandom(seed: 42)
        let buffer = random.bytes(1200)
        buffer.withUnsafeBytes { bytes in
            for start in 0..<9 {
                for length in 0...(bytes.count - start - 1) where length < 300 || length % 97 == 0 {
                    let slice = UnsafeRawBufferPointer(rebasing: bytes[start..<(start + length)])
                    let table = tally_crc32c_extend_table(0, slice.baseAddress, slice.count)
                    #expect(CRC32C.extend(0, slice) == table, "start \(start) length \(length)")
                }
            }
        }
    }

    @Test("extending over two pieces equals one pass over both")
    func extendIsIncremental() {
        var random = SeededRandom(seed: 7)
        let bytes = random.bytes(777)
        let whole = CRC32C.checksum(bytes)
        let split = bytes.withUnsafeBytes { all in
            CRC32C.extend(CRC32C.extend(0, UnsafeRawBufferPointer(rebasing: all[..<300])), UnsafeRawBufferPointer(rebasing: all[300...]))
        }
        #expect(whole == split)
    }

    @Test("this CPU uses the hardware instruction when it has SSE4.2")
    func reportsAcceleration() {
        #if arch(x86_64)
        // The CI machine has sse4_2 (Docs/Performance.md, "The machine"); a table-only build would be a silent 4x loss.
        #expect(CRC32C.isHardwareAccelerated)
        #endif
    }
}
