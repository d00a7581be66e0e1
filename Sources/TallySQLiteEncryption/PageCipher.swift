import Crypto
import Foundation

/// Seals and opens one SQLite page in place with AES-GCM.
///
/// Layout of a page of `pageBytes` bytes (SQLite reserves the last
/// ``trailerBytes`` of every page for us, header byte 20):
///
///     [0 ..< clear)                 clear, authenticated (page 1: the 100-byte database header)
///     [clear ..< pageBytes - 28)    ciphertext
///     [pageBytes - 28 ..< - 16)     nonce, 12 random bytes per write
///     [pageBytes - 16 ..< pageBytes) tag
///
/// The associated data binds the page to its place: a format tag, the file kind, the page
/// number and, in the WAL, the frame index, then the clear prefix.
struct PageCipher: @unchecked Sendable {
    // @unchecked Sendable: `key` is immutable; swift-crypto's SymmetricKey only lacks the
    // annotation on this platform (its storage is never written after init).
    static let nonceBytes = 12
    static let tagBytes = 16
    /// Bytes each page reserves for the nonce and the tag.
    static let trailerBytes = nonceBytes + tagBytes
    /// The database header at the start of page 1, kept clear so SQLite can read the page
    /// size and reserved bytes before anything is decrypted.
    static let databaseHeaderBytes = 100
    static let pageBytesMin = 512
    static let pageBytesMax = 65536

    /// Where a page lives; bound into the associated data.
    struct Place: Equatable {
        enum FileKind: UInt8 { case database = 1, wal = 2 }
        var fileKind: FileKind
        var pageNumber: UInt32
        /// 0-based index of the WAL frame; 0 in the database file.
        var frameIndex: UInt32

        var clearPrefixBytes: Int { pageNumber == 1 ? PageCipher.databaseHeaderBytes : 0 }
    }

    enum Failure: Error { case authentication, geometry }

    let key: SymmetricKey

    static func isPageSize(_ bytes: Int) -> Bool {
        bytes >= pageBytesMin && bytes <= pageBytesMax && bytes & (bytes - 1) == 0
    }

    /// Encrypts `page` in place with a fresh random nonce.
    func seal(_ page: UnsafeMutableRawBufferPointer, at place: Place) throws(Failure) {
        guard Self.isPageSize(page.count) else { throw .geometry }
        let clear = place.clearPrefixBytes
        let bodyEnd = page.count - Self.trailerBytes
        let associatedData = Self.associatedData(place, clearPrefix: UnsafeRawBufferPointer(rebasing: page[0..<clear]))
        do {
            let box = try AES.GCM.seal(
                UnsafeRawBufferPointer(rebasing: page[clear..<bodyEnd]),
                using: key, nonce: AES.GCM.Nonce(), authenticating: associatedData)
            precondition(box.ciphertext.count == bodyEnd - clear && box.tag.count == Self.tagBytes)
            box.ciphertext.copyBytes(to: UnsafeMutableRawBufferPointer(rebasing: page[clear..<bodyEnd]))
            box.nonce.withUnsafeBytes { nonce in
                UnsafeMutableRawBufferPointer(rebasing: page[bodyEnd..<(bodyEnd + Self.nonceBytes)]).copyMemory(from: nonce)
            }
            box.tag.copyBytes(to: UnsafeMutableRawBufferPointer(rebasing: page[(bodyEnd + Self.nonceBytes)...]))
        } catch {
            throw .authentication
        }
    }

    /// Decrypts `page` in place and zeroes its nonce and tag; throws if the key is wrong or any
    /// byte was altered, and then leaves no plaintext in `page`.
    func open(_ page: UnsafeMutableRawBufferPointer, at place: Place) throws(Failure) {
        guard Self.isPageSize(page.count) else { throw .geometry }
        let clear = place.clearPrefixBytes
        let bodyEnd = page.count - Self.trailerBytes
        let associatedData = Self.associatedData(place, clearPrefix: UnsafeRawBufferPointer(rebasing: page[0..<clear]))
        do {
            let nonce = try AES.GCM.Nonce(data: UnsafeRawBufferPointer(rebasing: page[bodyEnd..<(bodyEnd + Self.nonceBytes)]))
            let box = try AES.GCM.SealedBox(
                nonce: nonce,
                ciphertext: UnsafeRawBufferPointer(rebasing: page[clear..<bodyEnd]),
                tag: UnsafeRawBufferPointer(rebasing: page[(bodyEnd + Self.nonceBytes)...]))
            let plaintext = try AES.GCM.open(box, using: key, authenticating: associatedData)
            guard plaintext.count == bodyEnd - clear else { throw Failure.authentication }
            plaintext.copyBytes(to: UnsafeMutableRawBufferPointer(rebasing: page[clear..<bodyEnd]))
            // SQLite sees zeros in the reserved bytes, as on a page it allocates: its WAL frame
            // checksums cover the whole page, so the bytes must be the same when it writes a
            // page and when it reads it back while rebuilding the WAL index.
            UnsafeMutableRawBufferPointer(rebasing: page[bodyEnd...]).initializeMemory(as: UInt8.self, repeating: 0)
        } catch {
            throw .authentication
        }
    }

    private static func associatedData(_ place: Place, clearPrefix: UnsafeRawBufferPointer) -> [UInt8] {
        var bytes: [UInt8] = Array("TSQ1".utf8)
        bytes.reserveCapacity(bytes.count + 9 + clearPrefix.count)
        bytes.append(place.fileKind.rawValue)
        withUnsafeBytes(of: place.pageNumber.bigEndian) { bytes.append(contentsOf: $0) }
        withUnsafeBytes(of: place.frameIndex.bigEndian) { bytes.append(contentsOf: $0) }
        bytes.append(contentsOf: clearPrefix)
        return bytes
    }
}
