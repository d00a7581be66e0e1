import Foundation
import Hummingbird
import Logging
import Tally
import TallyJournal
import TallyServer
import TallySync
import TallySyncHTTP
import TallySyncServer
import TallySyncWire

/// `tally serve`'s HTTP endpoints over a ``SyncServer`` (Docs/Sync.md, "HTTP"). Every request
/// carries its device's bearer token (`Authorization: Bearer <token>`); the device it names is
/// the one that pushes or pulls, bound to its household and person.
///
/// - `POST /v1/push`: the body is one pushed command per line (a ``PushedCommand`` body each,
///   at most ``HistoryLimits/commandsPerAppendMax``); the answer `{"outcomes": [...]}` has one
///   outcome per line, in order (`{"kind": "accepted", "firstSequenceNumber", "lastSequenceNumber"}`
///   or `{"kind": "rejected", "code", "message"}`). A line that is not a push fails the whole
///   request (400) before anything is appended.
/// - `GET /v1/frames?after=N&chain=HEX&limit=M&wait=MS&keysAfter=K`: the household's frames that end after
///   sequence number `N`, where the device's record chain is `HEX` (409 `cursorNotOnHistory` when
///   that is not the server's: the device's ledger is of another history) (at most `M`, default and cap `SyncBounds.framesPerPageMax`, 256): `{"frames": [{"firstSequenceNumber",
///   "lastSequenceNumber", "records", "chain"}]}`, records and chain in base64. With `wait`
///   (milliseconds, at most `SyncBounds.waitMillisecondsMax`, 30,000) and nothing new, the answer waits until frames arrive or
///   the time is up (long poll). With `keysAfter` and frames, also `"keys"` (as `GET /v1/keys`
///   answers, read after the frames) and `"moreKeys"`; always `"head"`, the household's last
///   sequence number when the page was read.
///
/// - `POST /v1/keys` `{"keys": [{"personID", "sealed", "fingerprint"}], "secretVerifier"}`: text
///   keys the device shares, sealed under the household's secret, with the secret's verifier
///   (base64; 400 `secretVerifierMissing` without it, 409 `householdSecretMismatch` when the
///   household's keys are under another secret); answers `{"conflicts": [person ids]}`, the
///   people whose stored key is another one. `GET /v1/keys?after=N`: the keys stored after
///   serial `N`, `{"keys": [{"serial", "personID", "sealed", "fingerprint"}]}` (at most
///   `SyncBounds.keysPerPageMax`).
/// - `POST /v1/invitations` `{"personID": id or null}`: a one-use code for a new device acting
///   for that person (null: the asking device's): a pending household invitation's invitee
///   (asked by the admin) or an active member (asked by themselves or the admin): `{"code",
///   "personID", "invitationID", "expiresAtMilliseconds"}`; a rule refusing it is 409 with the
///   rule's code (`adminOnly`, `notAMember`, `unknownPerson`).
/// - `POST /v1/join` `{"code"}`, without a token: registers a new device with the code (once,
///   before it expires; 403 `invitationRefused` otherwise): `{"token", "deviceID", "householdID",
///   "personID", "invitationID"}`.
///
/// Failures are JSON `{"code", "message"}` with 400 (a malformed request), 401 (no token, or an
/// unknown or revoked one), 403 (a device not allowed), 409 (a cursor not on the history), 413
/// (a body too large), 500 (the server failed) or 503 (the database failed; retry).
public enum SyncHTTPServer {
    /// The largest push body read.
    static let pushBytesMax = SyncBounds.pushBytesMax

    /// The routes over `server`.
    public static func router(_ server: SyncServer) -> Router<BasicRequestContext> {
        let router = Router()
        router.post("v1/push") { request, _ -> Response in
            try await respond {
                let device = try await authenticate(request, server)
                let body = try await request.body.collect(upTo: pushBytesMax)
                var commands: [(body: [UInt8], push: PushedCommand)] = []
                let lines = Array(body.readableBytesView).split(separator: UInt8(ascii: "\n"))
                let linesMax = await server.history.limits.commandsPerAppendMax
                guard lines.count <= linesMax else {
                    throw Failure(status: .badRequest, code: "pushTooLarge", message: "a push holds at most \(linesMax) commands; this one has \(lines.count)")
                }
                for (index, line) in lines.enumerated() {
                    let bytes = Array(line)
                    let push: PushedCommand
                    do {
                        push = try PushedCommand(body: bytes)
                    } catch {
                        throw Failure(status: .badRequest, code: "commandInvalid", message: "line \(index + 1): \(error)")
                    }
                    commands.append((bytes, push))
                }
                guard !commands.isEmpty else {
                    throw Failure(status: .badRequest, code: "pushEmpty", message: "the body holds no command; send one pushed command per line")
                }
                let outcomes = try await server.push(read: commands, from: device)
                return try json(SyncWire.Outcomes(outcomes: outcomes))
            }
        }
        router.get("v1/frames") { request, _ -> Response in
            try await respond {
                let device = try await authenticate(request, server)
                let parameters = request.uri.queryParameters
                guard let after = parameters.get("after", as: UInt64.self) else {
                    throw Failure(status: .badRequest, code: "cursorMissing", message: "give after=N, the last sequence number the device holds (0 for none)")
                }
                let limit = min(parameters.get("limit", as: Int.self) ?? SyncBounds.framesPerPageMax, SyncBounds.framesPerPageMax)
                guard limit > 0 else {
                    throw Failure(status: .badRequest, code: "limitInvalid", message: "limit must be at least 1")
                }
                let chain = try parameters.get("chain").map { text in
                    guard let bytes = Hex.bytes(text) else {
                        throw Failure(status: .badRequest, code: "chainInvalid", message: "chain must be the hex chain value the device holds at after")
                    }
                    return bytes
                }
                let wait = parameters.get("wait", as: Int.self) ?? 0
                let page = try await server.pull(
                    household: device.householdID, after: after, chain: chain, limit: limit, waitMilliseconds: wait,
                    keysAfter: parameters.get("keysAfter", as: Int64.self))
                return try json(SyncWire.Frames(
                    frames: page.frames.map(SyncWire.Frame.init), keys: page.keys.map(SyncWire.Key.init), moreKeys: page.moreKeys, head: page.head))
            }
        }
        router.post("v1/keys") { request, _ -> Response in
            try await respond {
                let device = try await authenticate(request, server)
                let wire: SyncWire.Keys = try await decode(request)
                let keys = try wire.keys.map { key in
                    guard let sealed = key.key else {
                        throw Failure(status: .badRequest, code: "keyInvalid", message: "a key's sealed bytes and fingerprint are base64")
                    }
                    return sealed
                }
                guard let verifier = wire.secretVerifier.flatMap({ Data(base64Encoded: $0) }) else {
                    throw Failure(status: .badRequest, code: "secretVerifierMissing", message: "a share gives the household secret's verifier, base64 (secretVerifier)")
                }
                let conflicts = try await server.shareKeys(keys, secretVerifier: Array(verifier), from: device)
                return try json(SyncWire.KeyConflicts(conflicts: conflicts))
            }
        }
        router.get("v1/keys") { request, _ -> Response in
            try await respond {
                let device = try await authenticate(request, server)
                guard let after = request.uri.queryParameters.get("after", as: Int64.self) else {
                    throw Failure(status: .badRequest, code: "cursorMissing", message: "give after=N, the serial of the last key the device received (0 for none)")
                }
                let keys = try await server.keys(household: device.householdID, after: after)
                return try json(SyncWire.Keys(keys: keys.map(SyncWire.Key.init)))
            }
        }
        router.post("v1/invitations") { request, _ -> Response in
            try await respond {
                let device = try await authenticate(request, server)
                let wire: SyncWire.InvitationRequest = try await decode(request)
                let made = try await server.invite(for: wire.personID, from: device)
                return try json(SyncWire.Invitation(
                    code: made.code, personID: made.invitation.personID, invitationID: made.invitation.invitationID,
                    expiresAtMilliseconds: made.invitation.expiresAtMilliseconds))
            }
        }
        router.post("v1/join") { request, _ -> Response in
            try await respond {
                let wire: SyncWire.JoinRequest = try await decode(request)
                let joined = try await server.acceptInvitation(code: wire.code)
                return try json(SyncWire.Joined(
                    token: joined.token, deviceID: joined.device.deviceID, householdID: joined.device.householdID,
                    personID: joined.device.personID, invitationID: joined.invitationID))
            }
        }
        return router
    }

    /// The largest JSON body of the keys and invitation endpoints.
    static let jsonBodyBytesMax = 1 << 20

    private static func decode<Body: Decodable>(_ request: Request) async throws -> Body {
        let body = try await request.body.collect(upTo: jsonBodyBytesMax)
        do {
            return try JSONDecoder().decode(Body.self, from: Data(body.readableBytesView))
        } catch {
            throw Failure(status: .badRequest, code: "bodyInvalid", message: "the body is not the endpoint's JSON: \(error)")
        }
    }

    /// An application serving ``router(_:)`` on `host`:`port` (0: any free port); `onRunning`
    /// gets the port it listens on.
    public static func application(
        _ server: SyncServer, host: String, port: Int, logger: Logger? = nil, onRunning: @escaping @Sendable (Int) async -> Void = { _ in }
    ) -> some ApplicationProtocol {
        Application(
            router: router(server),
            configuration: .init(address: .hostname(host, port: port), serverName: "tally"),
            onServerRunning: { channel in await onRunning(channel.localAddress?.port ?? port) },
            logger: logger)
    }

    // MARK: Requests and answers

    struct Failure: Error {
        var status: HTTPResponse.Status
        var code: String
        var message: String
    }

    private static func authenticate(_ request: Request, _ server: SyncServer) async throws -> Device {
        guard let header = request.headers[.authorization], header.hasPrefix("Bearer ") else {
            throw Failure(status: .unauthorized, code: "tokenMissing", message: "send the device's token as Authorization: Bearer <token>")
        }
        guard let device = try await server.authenticate(token: String(header.dropFirst("Bearer ".count))) else {
            throw Failure(status: .unauthorized, code: "tokenRefused", message: "this token is unknown or its device was revoked; register the device again")
        }
        return device
    }

    /// Runs `body`, answering a failure as JSON with its status.
    private static func respond(_ body: () async throws -> Response) async throws -> Response {
        do {
            return try await body()
        } catch let failure as Failure {
            return try json(SyncWire.Failure(code: failure.code, message: failure.message), status: failure.status)
        } catch let error as HTTPError where error.status == .contentTooLarge {
            return try json(SyncWire.Failure(code: "bodyTooLarge", message: "the body is too large: a push holds at most \(pushBytesMax) bytes (push fewer commands at once), a keys or invitations request \(jsonBodyBytesMax)"), status: .contentTooLarge)
        } catch SyncError.cursorNotOnHistory(let detail) {
            return try json(SyncWire.Failure(code: "cursorNotOnHistory", message: detail), status: .conflict)
        } catch LedgerError.rejected(let violation) {
            return try json(SyncWire.Failure(code: violation.code.rawValue, message: violation.message), status: .conflict)
        } catch let error as HouseholdHistoryError {
            return try json(SyncWire.Failure(code: error.code, message: "\(error)"), status: status(of: error))
        } catch {
            // The engine or its cache failed: nothing was appended (the transaction rolled back).
            return try json(SyncWire.Failure(code: "serverFailed", message: "the server failed; nothing was appended; retry later (a push is idempotent by command id)"), status: .internalServerError)
        }
    }

    /// A database failure may pass (503); a device not allowed is 403; a limit the request
    /// broke is 400; anything else is the server's own fault (500).
    private static func status(of error: HouseholdHistoryError) -> HTTPResponse.Status {
        switch error {
        case .database: .serviceUnavailable
        case .deviceNotAllowed, .unknownDevice, .invitationRefused: .forbidden
        case .householdSecretMismatch: .conflict
        case .limitExceeded, .sequenceNumberOutOfRange, .unknownHousehold: .badRequest
        default: .internalServerError
        }
    }

    private static func json(_ value: some Encodable, status: HTTPResponse.Status = .ok) throws -> Response {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let bytes = try encoder.encode(value)
        return Response(
            status: status, headers: [.contentType: "application/json"], body: ResponseBody(byteBuffer: ByteBuffer(bytes: bytes)))
    }
}
