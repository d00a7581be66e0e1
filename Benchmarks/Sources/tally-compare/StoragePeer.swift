import Foundation
import TallyModel
import TallyWorkload

/// One batch of workload events, prepared outside the timed region: the events and their
/// Codable DTOs (the JSON peers' app model).
struct PreparedBatch {
    let events: [Event]
    let json: [EventJSON]

    init(_ events: [Event]) {
        self.events = events
        json = events.map(EventJSON.init)
    }
}

/// A store compared with Tally. Appends are durable when they return. Encoding happens inside
/// `append` (it is part of the cost); reading includes decoding into the app's model.
@MainActor
protocol StoragePeer: AnyObject {
    /// Column title.
    var name: String { get }
    /// Appends `batch` as one durable unit (one frame, one transaction, one fdatasync).
    func append(_ batch: PreparedBatch) async throws
    /// Makes everything durable and releases writers (before sizes are read).
    func finishWriting() throws
    /// Bytes of the store's files.
    func diskBytes() -> Int64
    /// Reads every event back and decodes it; returns the number of events.
    func scanAndDecode() throws -> Int
    /// The store's own integrity check; returns the bytes checked, or nil when it has none.
    func verify() throws -> Int64?
}
