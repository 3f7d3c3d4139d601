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
    public init(source: String, baseURL: String, token: BearerToken?, http: any HTTPClient, route: NetworkRoute? = nil) {
        requester = SourceRequester(source: source, baseURL: baseURL, token: token, http: http, route: route)
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

    /// `GET /api/v1/history` (movements, newest first), its body handed to `consumer` unread as
    /// it arrives: the caller keeps it (a wallet with a million movements sends 700 MB) and
    /// decodes it with ``historyDecoder()``. At most `maxBytes` are accepted.
    public func downloadHistory(into consumer: any HTTPBodyConsumer, maxBytes: Int) async throws {
        try await requester.stream(BarkdHistoryDecoder.path, maxResponseBytes: maxBytes, into: consumer)
    }

    /// A decoder for the body ``downloadHistory(into:maxBytes:)`` delivered; its errors name
    /// the source, the request and the movement's field.
    public func historyDecoder() -> BarkdHistoryDecoder {
        BarkdHistoryDecoder(requester: requester)
    }

    /// `GET /api/v1/onchain/transactions`, oldest first.
    public func onchainTransactions() async throws -> [WalletTransaction] {
        try await requester.get("/api/v1/onchain/transactions") { reader in
            var list: [WalletTransaction] = []
            try reader.readArray { reader, _ in list.append(try BarkdDecoding.walletTransaction(&reader)) }
            return try reader.withoutRepeats(list, what: "txid", id: \.txid)
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
