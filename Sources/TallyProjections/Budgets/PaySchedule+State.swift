import TallyModel

// Pay periods and payday rules are written in read-model checkpoints with their one binary
// layout (TallyModel, WireValue+Rules.swift).
extension PayPeriod: WireBackedState {}
extension PaySchedule.Rule: WireBackedState {}

extension PaySchedule: StateCodable {
    func encode(to writer: inout BinaryWriter) { rules.encode(to: &writer) }
    init(from reader: inout StateReader) throws(ProjectionError) { self.init(rules: try reader.read()) }
}
