import Foundation
import TallyModel

/// The date formats CSV import recognizes (Docs/Domain.md, section 9): ISO `YYYY-MM-DD`, `D/M/Y` and `M/D/Y`
/// (separators `/`, `.` or `-`; two-digit years are 20YY).
public enum CSVDateFormat: String, Sendable, CaseIterable {
    case iso, dayMonthYear, monthDayYear

    /// Detects the one format that reads every value. ISO wins when all values are ISO. When
    /// both D/M/Y and M/D/Y read every value (every day and month <= 12), the file is
    /// ambiguous and the caller must choose.
    public static func detect(_ values: [String]) throws(InterchangeError) -> CSVDateFormat {
        let candidates = allCases.filter { format in values.allSatisfy { format.parse($0) != nil } }
        if candidates.contains(.iso) { return .iso }
        switch candidates.count {
        case 1: return candidates[0]
        case 0:
            let bad = values.first { value in allCases.allSatisfy { $0.parse(value) == nil } } ?? ""
            throw InterchangeError(code: "csvDateUnreadable", message: "the date \"\(bad)\" is not ISO, D/M/Y or M/D/Y")
        default:
            throw InterchangeError(
                code: "csvDateAmbiguous",
                message: "every date reads as both D/M/Y and M/D/Y (no day above 12); choose with --date-format dmy or mdy")
        }
    }

    /// Parses one value, or nil.
    public func parse(_ text: String) -> LocalDate? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if self == .iso {
            return try? LocalDate(iso: trimmed)
        }
        let parts = trimmed.split(whereSeparator: { $0 == "/" || $0 == "." || $0 == "-" }).map { Int($0) }
        guard parts.count == 3, let first = parts[0], let second = parts[1], var year = parts[2] else { return nil }
        guard String(trimmed.split(whereSeparator: { $0 == "/" || $0 == "." || $0 == "-" })[2]).count != 3 else { return nil }
        if year < 100 { year += 2000 }
        let (day, month) = self == .dayMonthYear ? (first, second) : (second, first)
        return try? LocalDate(year: year, month: month, day: day)
    }
}
