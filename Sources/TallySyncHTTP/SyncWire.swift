import Foundation
import TallyServer

/// The JSON bodies of the sync endpoints (Docs/Sync.md, "HTTP"), written and read on both sides
/// from this one description.
enum SyncWire {
    /// `POST /v1/push` answers one outcome per pushed line, each as the server stores it.
    struct Outcomes: Codable {
        var outcomes: [CommandOutcome]
    }

    /// `GET /v1/frames` answers the frames after the cursor and, when asked (`keysAfter`) and
    /// with frames, the keys stored after that serial.
    struct Frames: Codable {
        var frames: [Frame]
        var keys: [Key]?
        var moreKeys: Bool?
        /// The household's last sequence number when the page was read (absent from a server
        /// before it: the device pulls again until a page is empty).
        var head: UInt64?
    }

    struct Frame: Codable {
        var firstSequenceNumber: UInt64
        var lastSequenceNumber: UInt64
        /// The records' canonical bytes (`SyncRecords`), base64.
        var records: String
        /// The record chain after the last record, base64.
        var chain: String

        init(_ frame: HistoryFrame) {
            firstSequenceNumber = frame.firstSequenceNumber
            lastSequenceNumber = frame.lastSequenceNumber
            records = Data(frame.records).base64EncodedString()
            chain = Data(frame.chain).base64EncodedString()
        }

        var frame: HistoryFrame? {
            guard let records = Data(base64Encoded: records), let chain = Data(base64Encoded: chain) else { return nil }
            return HistoryFrame(
                firstSequenceNumber: firstSequenceNumber, lastSequenceNumber: lastSequenceNumber, records: Array(records), chain: Array(chain))
        }
    }

    /// An error's body: what to do about it.
    struct Failure: Codable {
        var code: String
        var message: String
    }

    /// `POST /v1/keys` takes keys a device shares; `GET /v1/keys` answers the stored ones.
    struct Keys: Codable {
        var keys: [Key]
        /// In a share: the household secret's verifier, base64.
        var secretVerifier: String?
    }

    struct Key: Codable {
        /// Set in an answer: the key's place in the household's list.
        var serial: Int64?
        var personID: UUID
        /// The key sealed under the household's secret, base64; both null in an answer: the
        /// person was forgotten.
        var sealed: String?
        /// Its fingerprint, base64.
        var fingerprint: String?

        init(_ key: SealedPersonKey) {
            personID = key.personID
            sealed = Data(key.sealed).base64EncodedString()
            fingerprint = Data(key.fingerprint).base64EncodedString()
        }

        init(_ stored: StoredPersonKey) {
            serial = stored.serial
            personID = stored.personID
            sealed = stored.key.map { Data($0.sealed).base64EncodedString() }
            fingerprint = stored.key.map { Data($0.fingerprint).base64EncodedString() }
        }

        /// The key; nil for a tombstone or bytes that are not base64.
        var key: SealedPersonKey? {
            guard let sealed = sealed.flatMap({ Data(base64Encoded: $0) }), let fingerprint = fingerprint.flatMap({ Data(base64Encoded: $0) }) else { return nil }
            return SealedPersonKey(personID: personID, sealed: Array(sealed), fingerprint: Array(fingerprint))
        }

        /// What a device reads from an answer.
        var stored: StoredPersonKey? {
            guard let serial else { return nil }
            if sealed == nil, fingerprint == nil { return StoredPersonKey(serial: serial, personID: personID, key: nil) }
            return key.map { StoredPersonKey(serial: serial, personID: personID, key: $0) }
        }
    }

    /// `POST /v1/keys` answers the people whose stored key is another one.
    struct KeyConflicts: Codable {
        var conflicts: [UUID]
    }

    /// `POST /v1/invitations` takes the person the new device acts for (none: the asking
    /// device's person).
    struct InvitationRequest: Codable {
        var personID: UUID?
    }

    /// `POST /v1/invitations` answers the code (shown once) and what it lets a device do.
    struct Invitation: Codable {
        var code: String
        var personID: UUID
        var invitationID: UUID?
        var expiresAtMilliseconds: Int64
    }

    /// `POST /v1/join` takes an invitation code, without a token.
    struct JoinRequest: Codable {
        var code: String
    }

    /// `POST /v1/join` answers the new device and its token (shown once).
    struct Joined: Codable {
        var token: String
        var deviceID: UUID
        var householdID: UUID
        var personID: UUID
        var invitationID: UUID?
    }
}
