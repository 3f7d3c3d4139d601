/// The last recorded pass of a source.
public struct IngestRun: Hashable, Sendable {
    public let source: String
    public let startedAt: Instant
    public let finishedAt: Instant
    public let ok: Bool
    public let counts: IngestCounts
    public let error: String?

    public init(source: String, startedAt: Instant, finishedAt: Instant, ok: Bool, counts: IngestCounts, error: String?) {
        self.source = source
        self.startedAt = startedAt
        self.finishedAt = finishedAt
        self.ok = ok
        self.counts = counts
        self.error = error
    }
}
