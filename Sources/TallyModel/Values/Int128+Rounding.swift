extension Int128 {
    /// `self / denominator` rounded half to even (G2: exact rates, rounding once at the end);
    /// `denominator` must be positive.
    public func dividedRoundingHalfEven(by denominator: Int128) -> Int128 {
        precondition(denominator > 0, "denominator must be positive")
        let magnitude = self.magnitude
        let unsignedDenominator = denominator.magnitude
        var quotient = magnitude / unsignedDenominator
        let twiceRemainder = (magnitude % unsignedDenominator) * 2
        if twiceRemainder > unsignedDenominator || (twiceRemainder == unsignedDenominator && quotient % 2 == 1) {
            quotient += 1
        }
        let signed = Int128(quotient)
        return self < 0 ? -signed : signed
    }
}
