import Foundation
import TallyServer

/// The JSON bodies of the sync endpoints (Docs/Sync.md, "HTTP"), written and read on both sides
/// from this one description.
enum SyncWire {
    /// `POST /v1/push` answers one outcome per pushed line, each as the server stores it.
    struct Outcomes: Codable {
        var outcomes: [CommandOutcome]
    }

    /// `GET /v1/frames` answers the frames after the cursor.
    struct Frames: Codable {
        var frames: [Frame]
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
}
