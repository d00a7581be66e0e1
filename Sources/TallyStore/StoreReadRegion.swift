import GRDB
import Synchronization

/// The tables a value computed from the store read (GRDB's `DatabaseRegion`, from the
/// statements it ran), so that a commit re-runs only the observations whose tables it
/// modified: invalidation per table, as GRDB's `ValueObservation` and Room's
/// `InvalidationTracker` do.
package struct StoreReadRegion: Sendable {
    private var region: DatabaseRegion
    /// Whether the value may depend on anything (it read something other than the store).
    private var isEverything: Bool

    /// A region that every commit changes: for values computed from more than the store.
    package static let everything = StoreReadRegion(region: .fullDatabase, isEverything: true)

    private init(region: DatabaseRegion, isEverything: Bool) {
        self.region = region
        self.isEverything = isEverything
    }

    /// Whether a commit that modified `tables` (``LedgerStore/commit(_:from:coverage:)``) can
    /// have changed what was read.
    package func isChanged(by tables: Set<String>) -> Bool {
        isEverything || tables.contains { region.isModified(byEventsOfKind: .insert(tableName: $0)) }
    }

    /// Runs `body` and records the tables every ``LedgerStore`` read in it touched (reads on
    /// this task only; a read from another task at the same time is not recorded).
    /// - Returns: what `body` returned and the region it read.
    package static func recording<Value, Failure: Error>(
        _ body: () throws(Failure) -> Value
    ) throws(Failure) -> (value: Value, region: StoreReadRegion) {
        let recorder = StoreReadRecorder()
        let result: Result<Value, Failure> = StoreReadRecorder.$current.withValue(recorder) {
            do throws(Failure) { return .success(try body()) } catch { return .failure(error) }
        }
        let region = StoreReadRegion(region: recorder.region.withLock { $0 }, isEverything: false)
        return (try result.get(), region)
    }
}

/// Collects the region of the statements that reads run while it is the task's current one.
final class StoreReadRecorder: Sendable {
    @TaskLocal static var current: StoreReadRecorder?
    let region = Mutex(DatabaseRegion())

    /// Runs `body` on `database` with every statement it executes traced, then adds the tables
    /// those statements read.
    func record<T>(_ database: Database, _ body: (Database) throws -> T) throws -> T {
        let statements = TracedStatements()
        database.trace(options: .statement) { event in
            if case .statement(let statement) = event { statements.sql.append(statement.sql) }
        }
        defer { database.trace(options: .statement, nil) }
        let value = try body(database)
        var read = DatabaseRegion()
        // SQLite also traces what FTS5 runs inside a statement on its shadow tables, as a
        // comment: the statement that ran it already names the virtual table.
        for sql in Set(statements.sql) where !sql.hasPrefix("--") {
            read = read.union(try database.makeStatement(sql: sql).databaseRegion)
        }
        region.withLock { $0 = $0.union(read) }
        return value
    }
}

/// The SQL of the statements one traced read ran.
private final class TracedStatements: @unchecked Sendable {  // used on one connection's queue only, inside one read
    var sql: [String] = []
}
