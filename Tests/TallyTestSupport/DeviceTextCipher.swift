import Synchronization
import TallyModel

/// A device's personal-text cipher for tests of sealed texts (issue 32): one XOR key byte per
/// seal, numbered and never 0, so that two seals of one text differ (as AES-GCM's random nonce
/// makes them), with AES-GCM's 28 bytes of overhead (the key byte repeated); the owners in
/// `forgotten` have no key (their texts read and are written redacted, P3).
package final class DeviceTextCipher: PersonalTextCipher {
    private let seals = Mutex(UInt64(0))
    package let forgotten: Set<PersonID>

    package init(forgotten: Set<PersonID> = []) { self.forgotten = forgotten }

    package func seal(_ text: String, owner: PersonID) -> [UInt8]? {
        guard !forgotten.contains(owner) else { return nil }
        let nonce = seals.withLock { counter in
            counter += 1
            return UInt8(counter % 255 + 1)
        }
        return [UInt8](repeating: nonce, count: 28) + text.utf8.map { $0 ^ nonce }
    }

    package func open(_ sealed: ArraySlice<UInt8>, owner: PersonID) -> String? {
        guard !forgotten.contains(owner), sealed.count >= 28, let nonce = sealed.first, nonce != 0 else { return nil }
        return String(decoding: sealed.dropFirst(28).map { $0 ^ nonce }, as: UTF8.self)
    }

    package func hasForgotten(_ owner: PersonID) -> Bool { forgotten.contains(owner) }
}
