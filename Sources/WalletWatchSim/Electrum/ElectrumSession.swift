/// What one Electrum connection has negotiated and subscribed to, shared by the task that
/// answers its calls and the one that notifies it.
struct ElectrumSession: Sendable {
    /// Whether `server.version` was called (only the first is accepted).
    var versionSeen = false
    /// The negotiated protocol version; nil before `server.version`.
    var version: ElectrumVersion?
    /// The hash of the last tip sent; nil until `blockchain.headers.subscribe` is called.
    var lastTipHash: String?
    /// Subscribed scripthashes and the last status sent for each.
    var statuses: [String: String?] = [:]
    /// A `drop` fault's countdown: the connection closes once this many more answers are written.
    var answersBeforeClose: Int?
    /// Batches received so far.
    var batches = 0
}
