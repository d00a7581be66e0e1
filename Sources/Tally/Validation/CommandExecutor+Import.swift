import TallyModel

/// Section 9: saved CSV import mappings (Docs/Interchange.md, "Saved mappings").
extension CommandExecutor {
    func validateImport(_ command: Command) throws(LedgerError) -> [EventPayload] {
        switch command.action {
        case .saveImportMapping(let name, let columns, let categories):
            try requireName(name, of: "import mapping")
            var fields: Set<String> = []
            for pair in columns {
                guard ImportMappingSaved.fields.contains(pair.field) else {
                    throw .violation(.importMappingInvalid, "unknown field \"\(pair.field)\"; use \(ImportMappingSaved.fields.joined(separator: ", "))")
                }
                guard fields.insert(pair.field).inserted else {
                    throw .violation(.importMappingInvalid, "the field \(pair.field) is mapped twice; map each field to one column")
                }
                guard !pair.column.allSatisfy(\.isWhitespace) else {
                    throw .violation(.importMappingInvalid, "the field \(pair.field) is mapped to an empty column name")
                }
            }
            var names: Set<String> = []
            for pair in categories {
                guard !pair.name.allSatisfy(\.isWhitespace) else {
                    throw .violation(.importMappingInvalid, "a category mapping has an empty file name")
                }
                guard names.insert(pair.name.lowercased()).inserted else {
                    throw .violation(.importMappingInvalid, "the file category \"\(pair.name)\" is mapped twice; map each name to one category")
                }
                _ = try existingCategory(pair.categoryID)
            }
            // Stored in a canonical order, so equal mappings record equal events.
            let ordered = ImportMappingSaved.fields.compactMap { field in columns.first { $0.field == field } }
            return [.importMappingSaved(ImportMappingSaved(
                name: name, columns: ordered, categories: categories.sorted { $0.name.lowercased() < $1.name.lowercased() }))]
        case .removeImportMapping(let name):
            guard let saved = state.importMappings[name.lowercased()] else {
                let known = state.importMappings.values.map(\.name).sorted()
                throw .violation(.unknownImportMapping, "no import mapping is named \"\(name)\"" + (known.isEmpty ? "; none is saved" : "; saved: \(known.joined(separator: ", "))"))
            }
            return [.importMappingRemoved(ImportMappingRemoved(name: saved.name))]
        default:
            return []
        }
    }
}
