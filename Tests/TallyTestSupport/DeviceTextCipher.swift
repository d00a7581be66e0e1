import Synchronization
import TallyModel

/// A device's personal-text cipher for tests of sealed texts (issue 32): one XOR key stream per
/// seal, numbered, so that two seals of one text differ (as AES-GCM's random nonce makes them);
/// the owners in `forgotten` have no key (their texts read and are written redacted, P3).
package final class DeviceTextCipher: PersonalTextCipher {
    private let seals = Mutex(UInt8(0))
    package let forgotten: Set<PersonID>

    package init(forgotten: Set<PersonID> = []) { self.forgotten = forgotten }

    package func seal(_ text: String, owner: PersonID) -> [UInt8]? {
        guard !forgotten.contains(owner) else { return nil }
        let nonce = seals.withLock { counter in
            counter &+= 1
            return counter
        }
        return [nonce] + text.utf8.map { $0 ^ nonce }
    }

    package func open(_ sealed: ArraySlice<UInt8>, owner: PersonID) -> String? {
        guard !forgotten.contains(owner), let nonce = sealed.first else { return nil }
        return String(decoding: sealed.dropFirst().map { $0 ^ nonce }, as: UTF8.self)
    }

    package func hasForgotten(_ owner: PersonID) -> Bool { forgotten.contains(owner) }
}
