/// How often a source's passes succeeded and failed, and when one last succeeded.
public struct IngestRunTotals: Hashable, Sendable {
    public let source: String
    public let succeeded: Int
    public let failed: Int
    public let lastSuccess: Instant?

    public init(source: String, succeeded: Int, failed: Int, lastSuccess: Instant?) {
        self.source = source
        self.succeeded = succeeded
        self.failed = failed
        self.lastSuccess = lastSuccess
    }
}
