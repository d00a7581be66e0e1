import TallyModel

/// G1 at command time: every amount, currency, exchange rate and sum an accepted command's
/// events record stays within ``LedgerLimits``, so that no balance, debt, budget, group total
/// or converted net worth the engine or a read model computes can leave `Int64`
/// (Docs/Commands.md, "Limits"). Checked on the events a command produces, whatever command
/// (undo and redo included) produced them: one place for every path.
extension CommandExecutor {
    /// Throws `unknownCurrency`, `invalidValue` (an amount or rate over its limit) or
    /// `totalOutOfRange` (a sum bound passed) for the first event at fault.
    func requireBounded(_ payloads: [EventPayload]) throws(LedgerError) {
        var exposure = state.exposure
        var base = state.household?.baseCurrency
        for payload in payloads {
            try requireKnownCurrencies(payload)
            for amount in payload.recordedAmounts(in: state) + payload.plannedAmounts { try requireWithinLimit(amount, "amount") }
            if case .exchangeRateSet(let event) = payload, event.rate.scaledRate > LedgerLimits.exchangeRateScaledMax {
                throw .violation(.invalidValue, "the rate \(event.rate) is over the largest rate accepted, 10000000 (LedgerLimits.exchangeRateScaledMax); quote the pair the other way round")
            }
            switch payload {
            case .householdCreated(let event): base = event.baseCurrency
            case .baseCurrencyChanged(let event): base = event.baseCurrency
            default: break
            }
            exposure.record(payload, in: state)
        }
        try requireExposure(exposure, base: base)
    }

    private func requireKnownCurrencies(_ payload: EventPayload) throws(LedgerError) {
        if let unknown = payload.namedCurrencies(in: state).first(where: { !$0.isISO4217 }) {
            throw .violation(.unknownCurrency, ModelError.unknownCurrency(unknown.code).message)
        }
    }

    /// Only sums that grew are checked, so a journal recorded before these limits (which may
    /// be over them) still accepts commands that add no money.
    private func requireExposure(_ exposure: MoneyExposure, base: Currency?) throws(LedgerError) {
        for currency in exposure.currencies where exposure.minorUnits(in: currency) > state.exposure.minorUnits(in: currency) {
            let total = exposure.minorUnits(in: currency)
            guard total <= LedgerLimits.currencyExposureMinorUnitsMax else {
                let limit = Money(minorUnits: LedgerLimits.currencyExposureMinorUnitsMax, currency: currency)
                throw .violation(.totalOutOfRange, "the amounts recorded in \(currency) would add up to more than \(limit.formatted()) (LedgerLimits.currencyExposureMinorUnitsMax), the bound that keeps every balance and total exact; nothing was recorded")
            }
        }
        guard let base else { return }
        let before = base == state.household?.baseCurrency ? state.exposure.convertedMinorUnits(into: base) : nil
        let after = exposure.convertedMinorUnits(into: base)
        if let after, let before, after <= before { return }
        guard let after, after <= Int128(LedgerLimits.convertedExposureMinorUnitsMax) else {
            let limit = Money(minorUnits: LedgerLimits.convertedExposureMinorUnitsMax, currency: base)
            throw .violation(.totalOutOfRange, "converted into \(base) at the largest rates set, the amounts recorded could add up to more than \(limit.formatted()) (LedgerLimits.convertedExposureMinorUnitsMax); nothing was recorded. Check the rate and the amounts")
        }
    }
}
