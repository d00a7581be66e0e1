extension ScaleRun {
    /// Issue 15 at `size`, before anything grows the ledgers: each query measurement in a
    /// fresh child per subject (the subjects alternate who goes first), then the observation,
    /// which executes `observedCommands` more transactions in each.
    func measureQueries(size: Int, into figures: inout [SubjectKind: Figures]) throws {
        let kinds = QueryKind.allCases.filter { $0 != .balanceObservation }
        Self.progress("\(size): \(kinds.count) queries, \(options.queryRepetitions) timed repetitions each after \(options.queryWarmups) untimed")
        for (index, kind) in kinds.enumerated() {
            for offset in SubjectKind.allCases.indices {
                let subject = SubjectKind.allCases[(index + offset) % SubjectKind.allCases.count]
                var query = request(.query, subject, size: size)
                query.query = kind
                query.repetitions = options.queryRepetitions
                query.warmups = options.queryWarmups
                query.budgetSeconds = Double(options.querySecondsMax)
                figures[subject]?.merge(try ChildProcess.measure(query)) { $1 }
            }
        }
        Self.progress("\(size): observation of the balances over \(options.observedCommands) commands")
        for subject in SubjectKind.allCases {
            var observation = request(.observation, subject, size: size)
            observation.commands = Self.setupCommands + size
            observation.repetitions = options.observedCommands
            figures[subject]?.merge(try ChildProcess.measure(observation)) { $1 }
        }
    }
}
