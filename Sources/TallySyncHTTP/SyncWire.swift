import Foundation
import TallySyncWire

/// The JSON bodies of the sync endpoints (Docs/Sync.md, "HTTP"), written and read on both sides
/// from this one description.
package enum SyncWire {
    /// `POST /v1/push` answers one outcome per pushed line, each as the server stores it.
    package struct Outcomes: Codable {
        package var outcomes: [CommandOutcome]

        package init(outcomes: [CommandOutcome]) { self.outcomes = outcomes }
    }

    /// `GET /v1/frames` answers the frames after the cursor and, when asked (`keysAfter`) and
    /// with frames, the keys stored after that serial.
    package struct Frames: Codable {
        package var frames: [Frame]
        package var keys: [Key]?
        package var moreKeys: Bool?
        /// The household's last sequence number when the page was read (absent from a server
        /// before it: the device pulls again until a page is empty).
        package var head: UInt64?

        package init(frames: [Frame], keys: [Key]? = nil, moreKeys: Bool? = nil, head: UInt64? = nil) {
            self.frames = frames
            self.keys = keys
            self.moreKeys = moreKeys
            self.head = head
        }
    }

    package struct Frame: Codable {
        package var firstSequenceNumber: UInt64
        package var lastSequenceNumber: UInt64
        /// The records' canonical bytes (`SyncRecords`), base64.
        package var records: String
        /// The record chain after the last record, base64.
        package var chain: String

        package init(_ frame: HistoryFrame) {
            firstSequenceNumber = frame.firstSequenceNumber
            lastSequenceNumber = frame.lastSequenceNumber
            records = Data(frame.records).base64EncodedString()
            chain = Data(frame.chain).base64EncodedString()
        }

        package var frame: HistoryFrame? {
            guard let records = Data(base64Encoded: records), let chain = Data(base64Encoded: chain) else { return nil }
            return HistoryFrame(
                firstSequenceNumber: firstSequenceNumber, lastSequenceNumber: lastSequenceNumber, records: Array(records), chain: Array(chain))
        }
    }

    /// An error's body: what to do about it.
    package struct Failure: Codable {
        package var code: String
        package var message: String

        package init(code: String, message: String) {
            self.code = code
            self.message = message
        }
    }

    /// `POST /v1/keys` takes keys a device shares; `GET /v1/keys` answers the stored ones.
    package struct Keys: Codable {
        package var keys: [Key]
        /// In a share: the household secret's verifier, base64.
        package var secretVerifier: String?

        package init(keys: [Key], secretVerifier: String? = nil) {
            self.keys = keys
            self.secretVerifier = secretVerifier
        }
    }

    package struct Key: Codable {
        /// Set in an answer: the key's place in the household's list.
        package var serial: Int64?
        package var personID: UUID
        /// The key sealed under the household's secret, base64; both null in an answer: the
        /// person was forgotten.
        package var sealed: String?
        /// Its fingerprint, base64.
        package var fingerprint: String?

        package init(_ key: SealedPersonKey) {
            personID = key.personID
            sealed = Data(key.sealed).base64EncodedString()
            fingerprint = Data(key.fingerprint).base64EncodedString()
        }

        package init(_ stored: StoredPersonKey) {
            serial = stored.serial
            personID = stored.personID
            sealed = stored.key.map { Data($0.sealed).base64EncodedString() }
            fingerprint = stored.key.map { Data($0.fingerprint).base64EncodedString() }
        }

        /// The key; nil for a tombstone or bytes that are not base64.
        package var key: SealedPersonKey? {
            guard let sealed = sealed.flatMap({ Data(base64Encoded: $0) }), let fingerprint = fingerprint.flatMap({ Data(base64Encoded: $0) }) else { return nil }
            return SealedPersonKey(personID: personID, sealed: Array(sealed), fingerprint: Array(fingerprint))
        }

        /// What a device reads from an answer.
        package var stored: StoredPersonKey? {
            guard let serial else { return nil }
            if sealed == nil, fingerprint == nil { return StoredPersonKey(serial: serial, personID: personID, key: nil) }
            return key.map { StoredPersonKey(serial: serial, personID: personID, key: $0) }
        }
    }

    /// `POST /v1/keys` answers the people whose stored key is another one.
    package struct KeyConflicts: Codable {
        package var conflicts: [UUID]

        package init(conflicts: [UUID]) { self.conflicts = conflicts }
    }

    /// `POST /v1/invitations` takes the person the new device acts for (none: the asking
    /// device's person).
    package struct InvitationRequest: Codable {
        package var personID: UUID?
    }

    /// `POST /v1/invitations` answers the code (shown once) and what it lets a device do.
    package struct Invitation: Codable {
        package var code: String
        package var personID: UUID
        package var invitationID: UUID?
        package var expiresAtMilliseconds: Int64

        package init(code: String, personID: UUID, invitationID: UUID?, expiresAtMilliseconds: Int64) {
            self.code = code
            self.personID = personID
            self.invitationID = invitationID
            self.expiresAtMilliseconds = expiresAtMilliseconds
        }
    }

    /// `POST /v1/join` takes an invitation code, without a token.
    package struct JoinRequest: Codable {
        package var code: String
    }

    /// `POST /v1/join` answers the new device and its token (shown once).
    package struct Joined: Codable {
        package var token: String
        package var deviceID: UUID
        package var householdID: UUID
        package var personID: UUID
        package var invitationID: UUID?

        package init(token: String, deviceID: UUID, householdID: UUID, personID: UUID, invitationID: UUID?) {
            self.token = token
            self.deviceID = deviceID
            self.householdID = householdID
            self.personID = personID
            self.invitationID = invitationID
        }
    }
}
