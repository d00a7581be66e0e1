import TallyModel
import TallyProjections

extension Ledger {
    /// The bonus pool (Flow US-066): every income marked as a bonus that `viewer` sees, with
    /// what is allocated, what is left and the last day to allocate it, by date then id. A bonus
    /// is its receiver's income (G7, Docs/Privacy.md): a member sees their own bonuses (and a
    /// shared one's sharers see it); `Viewer.audit` sees all.
    public func bonusPool(visibleTo viewer: Viewer) -> [BonusPoolEntry] {
        servedModels.budgets.bonusPool(visibleTo: viewer)
    }
}
