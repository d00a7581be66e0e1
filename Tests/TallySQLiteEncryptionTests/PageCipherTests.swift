import Crypto
import Testing
@testable import TallySQLiteEncryption

@Suite("PageCipher")
struct PageCipherTests {
    let cipher = PageCipher(key: SymmetricKey(size: .bits256))

    func page(_ fill: UInt8) -> [UInt8] {
        var bytes = [UInt8](repeating: fill, count: 4096)
        bytes[20] = UInt8(PageCipher.trailerBytes)
        return bytes
    }

    @Test("a sealed page opens at its place to the same bytes, and keeps page 1's header clear")
    func roundTrip() throws {
        for pageNumber: UInt32 in [1, 2] {
            let place = PageCipher.Place(fileKind: .database, pageNumber: pageNumber, frameIndex: 0)
            let original = page(0x41)
            var bytes = original
            try bytes.withUnsafeMutableBytes { try cipher.seal($0, at: place) }
            #expect(bytes[place.clearPrefixBytes..<(4096 - 28)] != original[place.clearPrefixBytes..<(4096 - 28)])
            #expect(bytes[0..<place.clearPrefixBytes] == original[0..<place.clearPrefixBytes])
            try bytes.withUnsafeMutableBytes { try cipher.open($0, at: place) }
            #expect(bytes[0..<(4096 - 28)] == original[0..<(4096 - 28)])
        }
    }

    @Test("a page moved to another page number, file or frame fails to open")
    func movedPageFails() throws {
        var bytes = page(0x42)
        let place = PageCipher.Place(fileKind: .wal, pageNumber: 3, frameIndex: 7)
        try bytes.withUnsafeMutableBytes { try cipher.seal($0, at: place) }
        for moved in [
            PageCipher.Place(fileKind: .wal, pageNumber: 4, frameIndex: 7),
            PageCipher.Place(fileKind: .wal, pageNumber: 3, frameIndex: 8),
            PageCipher.Place(fileKind: .database, pageNumber: 3, frameIndex: 7),
        ] {
            var copy = bytes
            #expect(throws: PageCipher.Failure.self) { try copy.withUnsafeMutableBytes { try cipher.open($0, at: moved) } }
        }
    }

    @Test("two seals of the same page differ (a fresh nonce per write)")
    func freshNoncePerWrite() throws {
        let place = PageCipher.Place(fileKind: .database, pageNumber: 2, frameIndex: 0)
        var first = page(0x43), second = page(0x43)
        try first.withUnsafeMutableBytes { try cipher.seal($0, at: place) }
        try second.withUnsafeMutableBytes { try cipher.seal($0, at: place) }
        #expect(first != second)
    }
}
