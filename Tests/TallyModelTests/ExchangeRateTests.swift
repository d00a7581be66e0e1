import Testing
import TallyModel

@Suite("ExchangeRate and Ratio")
struct ExchangeRateTests {
    @Test("G2: conversion rounds half-even once, ties to even in both directions", arguments: [
        // 1 EUR = 0.5 CHF: 1 cent -> 0.5 Rappen -> 0 (even); 3 cents -> 1.5 -> 2 (even).
        (Int64(1), "0.5", Int64(0)),
        (3, "0.5", 2),
        (5, "0.5", 2),
        (7, "0.5", 4),
        (-1, "0.5", 0),
        (-3, "0.5", -2),
        (-5, "0.5", -2),
        (10_000, "0.94125", 9412),
        (10_000, "0.94135", 9414),
        (10_000, "0.941251", 9413),
    ])
    func conversionRoundsHalfEven(minorUnits: Int64, rate: String, expected: Int64) throws {
        let exchangeRate = try ExchangeRate.parse(base: .eur, quote: .chf, rate)
        let converted = try exchangeRate.convert(Money(minorUnits: minorUnits, currency: .eur), to: .chf)
        #expect(converted == Money(minorUnits: expected, currency: .chf))
    }

    @Test("G2: conversion honours minor-unit exponents (JPY 0, BHD 3)")
    func conversionAcrossExponents() throws {
        let usdJpy = try ExchangeRate.parse(base: .usd, quote: .jpy, "150.255")
        #expect(try usdJpy.convert(Money(minorUnits: 1000, currency: .usd), to: .jpy).minorUnits == 1503)
        let jpyUsd = try ExchangeRate.parse(base: .jpy, quote: .usd, "0.0066")
        #expect(try jpyUsd.convert(Money(minorUnits: 1000, currency: .jpy), to: .usd).minorUnits == 660)
        let usdBhd = try ExchangeRate.parse(base: .usd, quote: .bhd, "0.376")
        #expect(try usdBhd.convert(Money(minorUnits: 100, currency: .usd), to: .bhd).minorUnits == 376)
    }

    @Test("G2: conversion overflow and wrong currencies are typed errors")
    func conversionErrors() throws {
        let rate = try ExchangeRate.parse(base: .eur, quote: .chf, "1000")
        #expect(throws: ModelError.self) { try rate.convert(Money(minorUnits: .max, currency: .eur), to: .chf) }
        #expect(throws: ModelError.currencyMismatch(.usd, .eur)) { try rate.convert(Money(minorUnits: 1, currency: .usd), to: .chf) }
        #expect(throws: ModelError.currencyMismatch(.usd, .chf)) { try rate.convert(Money(minorUnits: 1, currency: .eur), to: .usd) }
        #expect(throws: ModelError.self) { try ExchangeRate.parse(base: .eur, quote: .chf, "0") }
        #expect(throws: ModelError.self) { try ExchangeRate.parse(base: .eur, quote: .chf, "1.123456789") }
        #expect(throws: ModelError.self) { try ExchangeRate.parse(base: .eur, quote: .eur, "1") }
        #expect(throws: ModelError.self) { try ExchangeRate.parse(base: .eur, quote: .chf, "1,5") }
    }

    @Test("G2: ratios are 0...10000 basis points")
    func ratioBounds() throws {
        #expect(try Ratio(basisPoints: 10_000) == .whole)
        #expect(try Ratio.percent(60).basisPoints == 6000)
        #expect(throws: ModelError.invalidRatio(basisPoints: 10_001)) { try Ratio(basisPoints: 10_001) }
        #expect(throws: ModelError.invalidRatio(basisPoints: -1)) { try Ratio(basisPoints: -1) }
        #expect(try Ratio(basisPoints: 3333).description == "33.33%")
    }
}
