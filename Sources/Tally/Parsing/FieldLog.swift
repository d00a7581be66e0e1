/// The keys present in the JSON objects of one command line and the keys its parser asked
/// about, by full path (`split.people`). A key present but never asked about is unknown: a
/// typo such as `"shard"` for `"shared"` must be an error, not silently dropped.
///
/// A class so that the nested `JSONFields` of one line share it; used by one parse on one
/// thread and never stored, hence not `Sendable`.
final class FieldLog {
    private var present: [String] = []
    private var consulted: Set<String> = []

    /// Notes the keys of one object, by full path.
    func register(keys: some Sequence<String>) {
        present.append(contentsOf: keys)
    }

    /// Notes that a parser asked about `field` (present or not).
    func consult(_ field: String) {
        consulted.insert(field)
    }

    /// The present keys no parser asked about, sorted.
    var unconsultedFields: [String] {
        present.filter { !consulted.contains($0) }.sorted()
    }
}
