import AsyncHTTPClient
import Foundation
import NIOCore
import TallyJournal
import TallySyncWire
import TallySync

/// A device's transport to `tally serve` (``SyncHTTPServer``), over AsyncHTTPClient.
public struct HTTPSyncTransport: SyncTransport {
    /// The server's base address, e.g. `http://127.0.0.1:8080`.
    public let server: String
    /// The device's bearer token; nil before it has one (a join).
    private let token: String?
    private let client: HTTPClient

    /// The transport of the device whose token is `token`.
    public init(server: String, token: String, client: HTTPClient = HTTPSyncTransport.defaultClient) {
        self.init(server: server, bearer: token, client: client)
    }

    private init(server: String, bearer token: String?, client: HTTPClient) {
        self.server = server.hasSuffix("/") ? String(server.dropLast()) : server
        self.token = token
        self.client = client
    }

    /// The client a transport uses unless given one: the shared client's settings, except that
    /// a connection that cannot be made fails at once (`retryConnectionEstablishment` off, a
    /// 10-second connect timeout) instead of being retried until the request's deadline: an
    /// offline device learns it in milliseconds, not after a minute, and its commands stay in
    /// its outbox (Docs/Sync.md, "The outbox"). Lives as long as the process.
    public static let defaultClient: HTTPClient = {
        var configuration = HTTPClient.Configuration.singletonConfiguration
        configuration.connectionPool.retryConnectionEstablishment = false
        configuration.timeout.connect = .seconds(10)
        return HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)
    }()

    /// How long one request may take, beyond a long poll's wait.
    private static let timeout = TimeAmount.seconds(60)
    /// The largest answer read.
    private static let answerBytesMax = 64 << 20

    public func push(_ commands: [SubmittedCommand]) async throws -> [CommandOutcome] {
        var request = HTTPClientRequest(url: server + "/v1/push")
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "application/x-ndjson")
        var body: [UInt8] = []
        for command in commands {
            body.append(contentsOf: command.body)
            body.append(UInt8(ascii: "\n"))
        }
        request.body = .bytes(ByteBuffer(bytes: body))
        let answer: SyncWire.Outcomes = try await send(request)
        guard answer.outcomes.count == commands.count else {
            throw SyncError.transport("the server answered \(commands.count) pushed command(s) with \(answer.outcomes.count) outcome(s)")
        }
        return answer.outcomes
    }

    public func pull(after sequenceNumber: UInt64, chain: [UInt8], limit: Int, waitMilliseconds: Int, keysAfter keySerial: Int64) async throws -> PulledPage {
        let request = HTTPClientRequest(
            url: server + "/v1/frames?after=\(sequenceNumber)&chain=\(Hex.string(chain))&limit=\(limit)&wait=\(waitMilliseconds)&keysAfter=\(keySerial)")
        let answer: SyncWire.Frames = try await send(request, waiting: waitMilliseconds)
        let frames = try answer.frames.map { wire in
            guard let frame = wire.frame else { throw SyncError.historyInvalid("a frame's records or chain is not base64") }
            return frame
        }
        // A server that sent no keys with its frames (one from before keysAfter): read them apart.
        return PulledPage(frames: frames, keys: try Self.stored(answer.keys ?? []), moreKeys: answer.moreKeys ?? !frames.isEmpty, head: answer.head)
    }

    private static func stored(_ keys: [SyncWire.Key]) throws -> [StoredPersonKey] {
        try keys.map { wire in
            guard let stored = wire.stored else {
                throw SyncError.historyInvalid("a key the server sent has no serial, or its sealed bytes or fingerprint are not base64")
            }
            return stored
        }
    }

    public func shareKeys(_ keys: [SealedPersonKey], secretVerifier: [UInt8]) async throws -> [UUID] {
        let body = SyncWire.Keys(keys: keys.map { SyncWire.Key($0) }, secretVerifier: Data(secretVerifier).base64EncodedString())
        let answer: SyncWire.KeyConflicts = try await send(try Self.post(server + "/v1/keys", body))
        return answer.conflicts
    }

    public func keys(after serial: Int64) async throws -> [StoredPersonKey] {
        let answer: SyncWire.Keys = try await send(HTTPClientRequest(url: server + "/v1/keys?after=\(serial)"))
        return try Self.stored(answer.keys)
    }

    public func invite(for person: UUID?) async throws -> (invitation: DeviceInvitation, code: String) {
        let answer: SyncWire.Invitation = try await send(try Self.post(server + "/v1/invitations", SyncWire.InvitationRequest(personID: person)))
        return (DeviceInvitation(personID: answer.personID, invitationID: answer.invitationID, expiresAtMilliseconds: answer.expiresAtMilliseconds), answer.code)
    }

    /// Joins a household with an invitation's code (Docs/Sync.md, "Joining a household"): the
    /// server at `server` registers a new device and answers its token, once. Only the code
    /// is sent; the household's secret stays in the invitation.
    /// - Throws: ``SyncError/requestRefused(status:code:message:)`` with `invitationRefused` for
    ///   a code that is unknown, used, expired or withdrawn; ``SyncError/transport(_:)``.
    public static func join(
        server: String, invitation: SyncInvitation, client: HTTPClient = HTTPSyncTransport.defaultClient
    ) async throws -> JoinedDevice {
        let transport = HTTPSyncTransport(server: server, bearer: nil, client: client)
        let answer: SyncWire.Joined = try await transport.send(try post(transport.server + "/v1/join", SyncWire.JoinRequest(code: invitation.code)))
        return JoinedDevice(
            device: Device(deviceID: answer.deviceID, householdID: answer.householdID, personID: answer.personID),
            token: answer.token, invitationID: answer.invitationID)
    }

    private static func post(_ url: String, _ body: some Encodable) throws -> HTTPClientRequest {
        var request = HTTPClientRequest(url: url)
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "application/json")
        request.body = .bytes(ByteBuffer(bytes: try JSONEncoder().encode(body)))
        return request
    }

    private func send<Answer: Decodable>(_ request: HTTPClientRequest, waiting waitMilliseconds: Int = 0) async throws -> Answer {
        var request = request
        if let token { request.headers.add(name: "Authorization", value: "Bearer \(token)") }
        let response: HTTPClientResponse
        let bytes: ByteBuffer
        do {
            let wait = Int64(min(max(waitMilliseconds, 0), SyncBounds.waitMillisecondsMax))
            response = try await client.execute(request, timeout: Self.timeout + .milliseconds(wait))
            bytes = try await response.body.collect(upTo: Self.answerBytesMax)
        } catch {
            throw SyncError.transport("\(server) cannot be reached: \(error)")
        }
        let data = Data(bytes.readableBytesView)
        guard response.status == .ok else {
            let failure = try? JSONDecoder().decode(SyncWire.Failure.self, from: data)
            guard (400..<500).contains(Int(response.status.code)) else {
                throw SyncError.transport("\(server) answered \(response.status)\(failure.map { ": \($0.code): \($0.message)" } ?? "")")
            }
            throw SyncError.requestRefused(
                status: Int(response.status.code), code: failure?.code ?? "requestRefused", message: failure?.message ?? "\(response.status)")
        }
        do {
            return try JSONDecoder().decode(Answer.self, from: data)
        } catch {
            throw SyncError.transport("\(server) answered with a body that is not the expected JSON: \(error)")
        }
    }
}
