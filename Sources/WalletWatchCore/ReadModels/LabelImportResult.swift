/// What a BIP-329 import did.
public struct LabelImportResult: Hashable, Sendable {
    /// Tag assignments written (already present ones are not counted).
    public var assigned = 0
    /// Tags created because a label named them: the first ones by name (a file may name
    /// millions), all of them in ``createdTagCount``.
    public var createdTags: [String] = []
    /// How many tags were created.
    public var createdTagCount = 0
    /// Distinct txids the file labelled.
    public var transactions = 0
    /// Assignments on txids not ingested yet.
    public var waiting = 0
    /// Labels naming a deactivated tag, not assigned.
    public var inactiveSkipped = 0

    public init(createdTags: [String] = []) {
        self.createdTags = createdTags
        createdTagCount = createdTags.count
    }
}
