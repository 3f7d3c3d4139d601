/// One problem `walletwatch check` found in the database: which check saw it, and what it is,
/// on one line that names the rows involved.
public struct CheckFinding: Hashable, Sendable {
    /// The check that found it: `integrity`, `foreign_keys`, `schema`, `allocation_history`,
    /// `manual_balance`, `rule1_once` or `completed_months`.
    public let check: String
    /// What is wrong, naming the table, row, asset, goal or month.
    public let detail: String

    public init(check: String, detail: String) {
        self.check = check
        self.detail = detail
    }
}
