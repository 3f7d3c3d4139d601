/// What a BIP-329 import did.
public struct LabelImportResult: Hashable, Sendable {
    /// Tag assignments written (already present ones are not counted).
    public var assigned = 0
    /// Tags created because a label named them.
    public var createdTags: [String] = []
    /// Assignments on txids not ingested yet.
    public var waiting = 0
    /// Labels naming a deactivated tag, not assigned.
    public var inactiveSkipped = 0

    public init(createdTags: [String] = []) {
        self.createdTags = createdTags
    }
}
