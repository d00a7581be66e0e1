/// The archived maps of a value (the engine's state, the read models), each reached through
/// its key path: a value lists its maps once, and what a checkpoint writes, settles, attaches
/// or detaches is derived from that list.
package struct ArchivedFields<Root> {
    private struct Field {
        let rows: (Root) -> AnySequence<ArchiveRow>
        let settle: (inout Root, Root, any ArchiveSource) -> Void
        let attach: (inout Root, any ArchiveSource) -> Void
        let detach: (inout Root) -> Void
        let residentCount: (Root) -> Int
        let isResident: (Root) -> Bool
    }

    private var fields: [Field] = []

    package init() {}

    /// Adds the map at `path`.
    package func with<Key, Value>(_ path: WritableKeyPath<Root, ArchivedMap<Key, Value>>) -> ArchivedFields {
        var copy = self
        copy.fields.append(Field(
            rows: { AnySequence($0[keyPath: path].archiveRows) },
            settle: { root, written, reader in root[keyPath: path].settle(written: written[keyPath: path], reader: reader) },
            attach: { root, reader in root[keyPath: path].attach(reader) },
            detach: { root in root[keyPath: path] = root[keyPath: path].detached() },
            residentCount: { $0[keyPath: path].resident.count },
            isResident: { $0[keyPath: path].isResident }))
        return copy
    }

    /// What a checkpoint writes to the archive: every entry changed since the last one.
    package func rows(of root: Root) -> some Sequence<ArchiveRow> { fields.lazy.flatMap { $0.rows(root) } }

    /// After a checkpoint wrote `written` (`root` as of then) to the archive `reader` reads:
    /// drops what the archive now holds from memory.
    package func settle(_ root: inout Root, written: Root, reader: any ArchiveSource) {
        for field in fields { field.settle(&root, written, reader) }
    }

    /// Reads what is not in memory from `reader` (a value restored from an archived checkpoint).
    package func attach(_ root: inout Root, to reader: any ArchiveSource) {
        for field in fields { field.attach(&root, reader) }
    }

    /// `root` with every map whole in memory, reading nothing from the archive.
    package func detached(_ root: Root) -> Root {
        var copy = root
        for field in fields { field.detach(&copy) }
        return copy
    }

    /// How many entries the maps hold in memory.
    package func residentCount(of root: Root) -> Int { fields.reduce(0) { $0 + $1.residentCount(root) } }

    /// Whether every map is whole in memory (no archive behind it).
    package func isResident(_ root: Root) -> Bool { fields.allSatisfy { $0.isResident(root) } }
}
