import WalletWatchCore
import WalletWatchNet
import WalletWatchStore

/// How the sources' passes and this process's HTTP client have been doing, for `/metrics`.
/// Passes are counted from the database, so those of `walletwatch ingest` in other processes
/// count too.
public struct Activity: Sendable {
    let database: AppDatabase
    let http: any HTTPClient

    init(database: AppDatabase, http: any HTTPClient) {
        self.database = database
        self.http = http
    }

    /// Each source's passes, successful and failed, and when one last succeeded.
    public func ingestRunTotals() throws -> [IngestRunTotals] {
        try database.ingestRunTotals()
    }

    /// Transactions in the ledger.
    public func transactionCount() throws -> Int {
        try database.transactionCount()
    }

    /// HTTP requests this process retried.
    public var httpRetries: Int { http.statistics.retries }
}
