import Foundation

/// Which transactions `tx list` shows. Every condition is optional; all given ones must hold.
public struct TransactionFilter: Sendable {
    public var asset: String?
    public var tag: String?
    /// Dated at or after this instant.
    public var since: Instant?
    /// Dated at or before this instant.
    public var until: Instant?
    public var status: TransactionStatus?
    /// At most this many, newest first.
    public var limit: Int?

    public init(asset: String? = nil, tag: String? = nil, since: Instant? = nil, until: Instant? = nil,
                status: TransactionStatus? = nil, limit: Int? = nil) {
        self.asset = asset
        self.tag = tag
        self.since = since
        self.until = until
        self.status = status
        self.limit = limit
    }
}
