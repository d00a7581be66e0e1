import TallyTestSupport

extension SeededRandom {
    /// A random value of any ``Arbitrary`` type, inferred from the context.
    mutating func make<Value: Arbitrary>(_ type: Value.Type = Value.self) -> Value {
        Value.arbitrary(using: &self)
    }
}
