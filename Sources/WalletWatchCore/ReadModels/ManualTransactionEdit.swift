/// A change to a manual transaction; nil fields stay as they are.
public struct ManualTransactionEdit: Sendable {
    public var amount: String?
    public var date: Instant?
    /// `.some(nil)` clears the note.
    public var note: String??

    public init(amount: String? = nil, date: Instant? = nil, note: String?? = nil) {
        self.amount = amount
        self.date = date
        self.note = note
    }
}
