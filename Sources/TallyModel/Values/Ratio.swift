/// A share of a whole in basis points (G2, S1): `10000` is 100%, `5000` is 50%, `1` is 0.01%.
public struct Ratio: Hashable, Comparable, Sendable {
    /// The number of basis points that make 100%.
    public static let basisPointsPerWhole: Int64 = 10_000
    /// 100%.
    public static let whole = Ratio(_unchecked: 10_000)
    /// 0%.
    public static let zero = Ratio(_unchecked: 0)

    /// The ratio in basis points, 0...10000.
    public let basisPoints: Int64

    /// Creates a ratio from basis points.
    /// - Throws: ``ModelError/invalidRatio(basisPoints:)`` outside 0...10000.
    public init(basisPoints: Int64) throws(ModelError) {
        guard (0...Ratio.basisPointsPerWhole).contains(basisPoints) else {
            throw .invalidRatio(basisPoints: basisPoints)
        }
        self.basisPoints = basisPoints
    }

    /// Creates a ratio from a whole percentage, e.g. `percent(60)` is 6000 bp.
    /// - Throws: ``ModelError/invalidRatio(basisPoints:)`` outside 0...100.
    public static func percent(_ percent: Int64) throws(ModelError) -> Ratio {
        let (basisPoints, overflow) = percent.multipliedReportingOverflow(by: 100)
        guard !overflow else { throw .invalidRatio(basisPoints: .max) }
        return try Ratio(basisPoints: basisPoints)
    }

    private init(_unchecked basisPoints: Int64) { self.basisPoints = basisPoints }

    /// Orders by basis points.
    public static func < (lhs: Ratio, rhs: Ratio) -> Bool { lhs.basisPoints < rhs.basisPoints }
}

extension Ratio: CustomStringConvertible {
    /// The percentage with two decimals, e.g. `60.00%`.
    public var description: String {
        let fraction = basisPoints % 100
        return "\(basisPoints / 100).\(fraction < 10 ? "0" : "")\(fraction)%"
    }
}
