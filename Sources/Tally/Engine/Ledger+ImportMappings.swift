import TallyModel

extension LedgerState {
    /// The saved CSV import mappings, by name (case-insensitive; section 9).
    package var savedImportMappings: [ImportMappingSaved] {
        importMappings.sorted { $0.key < $1.key }.map(\.value)
    }
}

extension Ledger {
    /// The saved CSV import mappings as of the last acknowledged batch, by name
    /// (case-insensitive; section 9, Docs/Interchange.md "Saved mappings").
    public var importMappings: [ImportMappingSaved] { state.savedImportMappings }

    /// The saved CSV import mapping named `name` (case-insensitive), or nil.
    public func importMapping(named name: String) -> ImportMappingSaved? { state.importMappings[name.lowercased()] }
}
