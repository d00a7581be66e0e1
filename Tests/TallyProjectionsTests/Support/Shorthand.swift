import TallyModel
import TallyTestSupport

/// The date of ISO `text` (short for ``Scenario/date(_:)``, which the projection tests write often).
func d(_ text: String) -> LocalDate { Scenario.date(text) }
/// CHF minor units (short for ``Scenario/chf(_:)``).
func chf(_ units: Int64) -> Money { Scenario.chf(units) }
