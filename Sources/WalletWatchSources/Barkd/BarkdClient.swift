import Foundation
import WalletWatchCore
import WalletWatchNet

/// Reads a barkd 0.6 daemon's REST API (SPEC.md section 4), strictly: any response that does
/// not match the documented schema is a ``SourceError`` naming the source, request and field.
public struct BarkdClient: Sendable {
    let requester: SourceRequester

    /// - parameters:
    ///   - source: the configured source name (it appears in errors and in Ark txids).
    ///   - baseURL: the daemon's URL, e.g. `http://127.0.0.1:3000`.
    ///   - token: the bearer token, read from a file or the environment by the caller.
    public init(source: String, baseURL: String, token: BearerToken?, http: any HTTPClient) {
        requester = SourceRequester(source: source, baseURL: baseURL, token: token, http: http)
    }

    public var source: String { requester.source }

    /// `GET /api/v1/wallet/balance`.
    public func balance() async throws -> ArkBalance {
        try await requester.get("/api/v1/wallet/balance", decode: BarkdDecoding.balance)
    }

    /// `GET /api/v1/onchain/balance`.
    public func onchainBalance() async throws -> OnchainBalance {
        try await requester.get("/api/v1/onchain/balance", decode: BarkdDecoding.onchainBalance)
    }

    /// `GET /api/v1/history`, streamed: each movement is decoded as it arrives and handed to
    /// `onMovement` (on the transfer's thread), so memory does not grow with the history.
    public func history(onMovement: @escaping @Sendable (MovementData) throws -> Void) async throws {
        let path = "/api/v1/history"
        let consumer = BarkdHistoryDecoder(onMovement: onMovement)
        // The history is read as a stream, so its total size is bounded by the element limit
        // (1 MiB a movement), not by max_response_bytes.
        try await requester.stream(path, maxResponseBytes: Int.max, into: consumer)
        try requester.decoded(path) { try consumer.finish() }
    }

    /// The whole history, newest first.
    public func history() async throws -> [MovementData] {
        let collected = Collected<MovementData>()
        try await history { collected.append($0) }
        return collected.values
    }

    /// `GET /api/v1/onchain/transactions`, oldest first.
    public func onchainTransactions() async throws -> [WalletTransaction] {
        try await requester.get("/api/v1/onchain/transactions") { reader in
            var list: [WalletTransaction] = []
            try reader.readArray { reader, _ in list.append(try BarkdDecoding.walletTransaction(&reader)) }
            return list
        }
    }

    /// `GET /api/v1/wallet/vtxos` (unspent ones).
    public func vtxos() async throws -> [VTXO] {
        try await requester.get("/api/v1/wallet/vtxos") { reader in
            var list: [VTXO] = []
            try reader.readArray { reader, _ in list.append(try BarkdDecoding.vtxo(&reader)) }
            return list
        }
    }

    /// `GET /api/v1/onchain/utxos`.
    public func utxos() async throws -> [UTXO] {
        try await requester.get("/api/v1/onchain/utxos") { reader in
            var list: [UTXO] = []
            try reader.readArray { reader, _ in list.append(try BarkdDecoding.utxo(&reader)) }
            return list
        }
    }

    /// `GET /api/v1/wallet/ark-info`.
    public func arkInfo() async throws -> ArkServerInfo {
        try await requester.get("/api/v1/wallet/ark-info", decode: BarkdDecoding.arkInfo)
    }

    /// `GET /api/v1/bitcoin/tip`.
    public func tipHeight() async throws -> Int64 {
        try await requester.get("/api/v1/bitcoin/tip", decode: BarkdDecoding.tip)
    }

    /// `GET /api/v1/notifications/wait?since=...`: waits (up to `timeout`) for movement
    /// notifications newer than `since` (the previous batch's `lastPushedAt`).
    public func waitForNotifications(since: String?, timeout: Duration) async throws -> NotificationBatch {
        var path = "/api/v1/notifications/wait"
        if let since {
            let allowed = CharacterSet.alphanumerics.union(CharacterSet(charactersIn: "-._~:"))
            path += "?since=" + (since.addingPercentEncoding(withAllowedCharacters: allowed) ?? since)
        }
        return try await requester.get(path, timeout: timeout, decode: BarkdDecoding.notifications)
    }
}

/// Values appended from a transfer thread and read once the transfer is over.
final class Collected<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var storage: [Value] = []

    func append(_ value: Value) {
        lock.lock()
        storage.append(value)
        lock.unlock()
    }

    var values: [Value] {
        lock.lock()
        defer { lock.unlock() }
        return storage
    }
}
