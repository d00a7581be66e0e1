import Foundation
import PostgresNIO

/// The caller's `execute` error, carried through the transaction so it is rethrown as it was.
struct ExecuteFailure: Error {
    var underlying: any Error
}

extension HouseholdHistory {
    /// Runs `body` in one PostgreSQL transaction: committed when it returns, rolled back when
    /// it throws. Errors come out as ``HouseholdHistoryError`` or, for the caller's `execute`,
    /// as the caller threw them.
    func transaction<Result: Sendable>(
        _ operation: String,
        _ body: (PostgresConnection) async throws -> Result
    ) async throws -> Result {
        do {
            return try await client.withTransaction(logger: logger) { connection in
                try await body(connection)
            }
        } catch let error as PostgresTransactionError {
            if let closureError = error.closureError {
                throw Self.historyError(closureError, operation: operation)
            }
            let failure = error.beginError ?? error.commitError ?? error.rollbackError
            throw HouseholdHistoryError.database(operation: operation, detail: failure.map(Self.detail) ?? "\(error)")
        } catch {
            throw Self.historyError(error, operation: operation)
        }
    }

    /// Runs `body` on a connection of the pool outside a transaction: for reads of one
    /// statement (one snapshot), which a transaction's BEGIN and COMMIT would only slow.
    func read<Result: Sendable>(_ operation: String, _ body: (PostgresConnection) async throws -> Result) async throws -> Result {
        do {
            return try await client.withConnection { connection in try await body(connection) }
        } catch {
            throw Self.historyError(error, operation: operation)
        }
    }

    static func historyError(_ error: any Error, operation: String) -> any Error {
        switch error {
        case let error as HouseholdHistoryError: error
        case let error as ExecuteFailure: error.underlying
        default: HouseholdHistoryError.database(operation: operation, detail: detail(error))
        }
    }

    /// PSQLError's `description` hides the server's message; its `debugDescription` has it.
    static func detail(_ error: any Error) -> String {
        String(reflecting: error)
    }

    /// A sequence number as PostgreSQL's `bigint`.
    func bigint(_ sequenceNumber: UInt64) throws -> Int64 {
        guard let value = Int64(exactly: sequenceNumber) else {
            throw HouseholdHistoryError.sequenceNumberOutOfRange(sequenceNumber)
        }
        return value
    }

    /// A `bigint` read from the database as a sequence number.
    func storedSequenceNumber(_ value: Int64, household: UUID) throws -> UInt64 {
        guard let sequenceNumber = UInt64(exactly: value) else {
            throw HouseholdHistoryError.storedHistoryInvalid(household: household, reason: "negative sequence number \(value)")
        }
        return sequenceNumber
    }
}
