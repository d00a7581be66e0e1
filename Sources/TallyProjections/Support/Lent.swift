/// A book a read model reads but does not own (``Projections`` lends its transaction book and
/// category index to the wallet, debt and budget read models): it takes no part in the
/// read model's `==` or hash, which its owner compares once. Comparing the lent copies too
/// walked the whole book (in the checkpoint archive, every entry) once per read model.
@propertyWrapper
struct Lent<Value: Sendable>: Hashable, Sendable {
    var wrappedValue: Value

    static func == (lhs: Lent, rhs: Lent) -> Bool { true }
    func hash(into hasher: inout Hasher) {}
}
