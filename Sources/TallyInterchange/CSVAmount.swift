import Foundation
import TallyModel

/// An amount cell of a CSV file read as signed integer minor units (G1, never floating point),
/// or refused with the reason when it could mean more than one amount (Docs/Interchange.md).
///
/// Accepted: an optional currency code of the wallet (`CHF -5`), one optional leading sign,
/// digits, at most one decimal mark (`.` or `,`) followed by 1 to the currency's decimals
/// digits, and grouping separators (`,` `.` `'` `’` space, no-break space) that group the whole
/// part by three with one separator, different from the decimal mark (`1'234.50`,
/// `1.234.567,89`). Refused: `1,2,3`, groups not of three (`12,34.50`), two decimal marks,
/// more decimals than the currency has, a sign anywhere but first, a lone `,` before exactly
/// three digits in a currency with three decimals (1234 or 1.234?), and values that do not
/// fit `Int64` minor units.
enum CSVAmount {
    /// Why a cell is not an amount.
    struct Refusal: Error, Equatable {
        /// For the row's report.
        var reason: String
    }

    private static let groupingOnly: Set<Character> = ["'", "’", " ", "\u{00A0}", "\u{202F}"]

    /// An amount cell read: its signed minor units and the sign written in it, if any (an
    /// importer checks a written sign against the row's type: Docs/Interchange.md).
    struct Reading: Equatable {
        /// Signed minor units.
        var minorUnits: Int64
        /// `-` or `+` when the cell starts with one (after the currency code); nil when unsigned.
        var sign: Character?
    }

    /// Signed minor units of `text` in `currency`.
    ///
    /// - Throws: ``Refusal`` saying what is ambiguous or malformed.
    static func minorUnits(_ text: String, currency: Currency) throws(Refusal) -> Int64 {
        try read(text, currency: currency).minorUnits
    }

    /// `text` in `currency` read as ``minorUnits(_:currency:)`` does, with the sign it was written with.
    ///
    /// - Throws: ``Refusal`` saying what is ambiguous or malformed.
    static func read(_ text: String, currency: Currency) throws(Refusal) -> Reading {
        var rest = Substring(text.trimmingCharacters(in: .whitespaces))
        if rest.hasPrefix(currency.code) { rest = rest.dropFirst(currency.code.count).drop { $0 == " " } }
        var sign: Character?
        if let first = rest.first, first == "-" || first == "+" {
            sign = first
            rest = rest.dropFirst()
        }
        guard !rest.isEmpty else { throw Refusal(reason: "no digits") }
        guard rest.allSatisfy({ $0.isASCII && $0.isNumber || $0 == "." || $0 == "," || groupingOnly.contains($0) }) else {
            let odd = rest.first { !($0.isASCII && $0.isNumber || $0 == "." || $0 == "," || groupingOnly.contains($0)) }.map(String.init) ?? ""
            throw Refusal(reason: odd == "-" || odd == "+" ? "a sign may only come first" : "\"\(odd)\" is not part of a \(currency.code) amount")
        }
        guard let first = rest.first, first.isNumber || first == "." || first == "," else {
            throw Refusal(reason: "an amount starts with a digit (after an optional \(currency.code) and sign)")
        }
        let (whole, fraction) = try split(rest, currency: currency)
        return Reading(minorUnits: try value(whole: whole, fraction: fraction, negative: sign == "-", currency: currency), sign: sign)
    }

    /// The whole part's digits (grouping removed, checked) and the fraction's digits.
    private static func split(_ number: Substring, currency: Currency) throws(Refusal) -> (Substring, Substring) {
        let marks = number.filter { !$0.isNumber }
        let decimalMark: Character?
        switch Set(marks).count {
        case 0:
            return (number, "")
        case 1 where marks.count == 1 && (marks.first == "." || marks.first == ","):
            // One `.` or `,`: the decimal mark; `,` before exactly three digits could also group.
            let parts = number.split(separator: marks.first ?? ".", omittingEmptySubsequences: false)
            if marks.first == ",", parts[1].count == 3, (1...3).contains(parts[0].count), parts[0].first != "0" {
                throw Refusal(reason: "ambiguous: a thousands separator or a decimal comma? write \(parts[0])\(parts[1]) or \(parts[0]).\(parts[1])")
            }
            decimalMark = marks.first
        case 1:
            decimalMark = nil
        case 2 where (marks.last == "." || marks.last == ",") && marks.filter({ $0 == marks.last }).count == 1:
            decimalMark = marks.last
        default:
            throw Refusal(reason: "ambiguous: more than one decimal mark or mixed thousands separators")
        }
        var whole = number[...]
        var fraction: Substring = ""
        if let decimalMark, let index = number.lastIndex(of: decimalMark) {
            whole = number[..<index]
            fraction = number[number.index(after: index)...]
            guard !fraction.isEmpty else { throw Refusal(reason: "no digits after the decimal mark") }
        }
        let groups = whole.split(omittingEmptySubsequences: false, whereSeparator: { !$0.isNumber })
        if groups.count > 1 {
            guard (1...3).contains(groups[0].count), groups.dropFirst().allSatisfy({ $0.count == 3 }) else {
                throw Refusal(reason: "ambiguous: thousands separators must group the digits by three")
            }
        }
        guard fraction.count <= currency.minorUnitExponent else {
            throw Refusal(reason: "\(fraction.count) decimals, but \(currency.code) has \(currency.minorUnitExponent)")
        }
        return (Substring(groups.joined()), fraction)
    }

    /// `whole.fraction` scaled to minor units, checked for overflow.
    private static func value(whole: Substring, fraction: Substring, negative: Bool, currency: Currency) throws(Refusal) -> Int64 {
        let exponent = currency.minorUnitExponent
        let tooLarge = Refusal(reason: "too large for \(currency.code) minor units")
        guard let wholeValue = Int64(whole.isEmpty ? "0" : String(whole)) else { throw tooLarge }
        let fractionValue = fraction.isEmpty ? 0 : (Int64(String(fraction)) ?? 0) * powerOfTen(exponent - fraction.count)
        let (scaled, overflow) = wholeValue.multipliedReportingOverflow(by: powerOfTen(exponent))
        let (magnitude, sumOverflow) = scaled.addingReportingOverflow(fractionValue)
        guard !overflow, !sumOverflow else { throw tooLarge }
        return negative ? -magnitude : magnitude
    }

    /// 10^exponent for a currency's decimals (0...3).
    private static func powerOfTen(_ exponent: Int) -> Int64 {
        (0..<exponent).reduce(1) { power, _ in power * 10 }
    }
}
