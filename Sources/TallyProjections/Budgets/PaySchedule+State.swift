import TallyModel

extension PayPeriod: StateCodable {
    func encode(to writer: inout BinaryWriter) {
        start.encode(to: &writer)
        end.encode(to: &writer)
    }
    init(from reader: inout StateReader) throws(ProjectionError) {
        self.init(start: try reader.read(), end: try reader.read())
    }
}

extension PaySchedule.Rule: StateCodable {
    func encode(to writer: inout BinaryWriter) {
        day.encode(to: &writer)
        effectiveFrom.encode(to: &writer)
        sequenceNumber.encode(to: &writer)
    }
    init(from reader: inout StateReader) throws(ProjectionError) {
        self.init(day: try reader.read(), effectiveFrom: try reader.read(), sequenceNumber: try reader.read())
    }
}

extension PaySchedule: StateCodable {
    func encode(to writer: inout BinaryWriter) { rules.encode(to: &writer) }
    init(from reader: inout StateReader) throws(ProjectionError) { self.init(rules: try reader.read()) }
}
