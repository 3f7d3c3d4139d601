import WalletWatchCore
import WalletWatchNet

/// Watches Ark addresses read-only through an Ark server's indexer (arkd's `IndexerService`
/// over its REST gateway, SPEC.md section 27), strictly, against the OpenAPI document pinned
/// from arkd v0.9.15.
public struct ArkdClient: Sendable {
    let requester: SourceRequester

    /// - parameter baseURL: the server's URL, e.g. `https://arkd.example` (port 7070 by default).
    public init(source: String, baseURL: String, http: any HTTPClient, route: NetworkRoute? = nil) {
        requester = SourceRequester(source: source, baseURL: baseURL, token: nil, http: http, route: route)
    }

    public var source: String { requester.source }

    /// `GET /v1/info`.
    public func info() async throws -> ArkadeInfo {
        try await requester.get("/v1/info", decode: ArkadeDecoding.arkdInfo)
    }

    /// Every VTXO of `scripts` (hex), spent ones included, `pageSize` a page from page 1 until
    /// `current >= total` (as arkd's own client pages).
    ///
    /// The indexer's query has no ORDER BY, so pages read while its set changes can overlap: a
    /// VTXO met on two pages refuses the whole answer (the next pass reads it again), as does a
    /// page that does not move on, or a count of pages that changes.
    public func vtxos(scripts: [String], pageSize: Int = 500) async throws -> [ArkadeVtxo] {
        precondition(pageSize > 0)
        let query = scripts.map { "scripts=\($0)" }.joined(separator: "&")
        var found: [ArkadeVtxo] = []
        var seen: [String: Int] = [:]
        var index = 1
        var total: Int?
        while true {
            let path = "/v1/indexer/vtxos?\(query)&page.size=\(pageSize)&page.index=\(index)"
            let page = try await requester.get(path, decode: ArkadeDecoding.indexerPage)
            for vtxo in page.vtxos {
                if let first = seen[vtxo.outpoint] {
                    throw requester.failure(path, "VTXO \(vtxo.outpoint) is on page \(first) and again on page \(index): the indexer's pages overlap (its VTXOs changed while they were read); nothing is stored, the next pass reads them again")
                }
                seen[vtxo.outpoint] = index
                found.append(vtxo)
            }
            guard let position = page.position else { break }
            guard position.current == index else {
                throw requester.failure(path, "page \(index) was asked for and page \(position.current) came back")
            }
            if total == nil { total = position.total }
            guard position.total == total else {
                throw requester.failure(path, "the indexer announced \(total ?? 0) pages, then \(position.total): its VTXOs changed while they were read; nothing is stored, the next pass reads them again")
            }
            guard position.current < position.total else { break }
            guard position.next == position.current + 1 else {
                throw requester.failure(path, "page \(position.current) of \(position.total) names \(position.next) as the next page; the indexer's paging is broken")
            }
            index = position.next
        }
        return found
    }

    /// `POST /v1/indexer/script/subscribe`: a subscription for `scripts`, its id.
    public func subscribe(scripts: [String]) async throws -> String {
        try await requester.post("/v1/indexer/script/subscribe", json: JSONText.object(["scripts": .strings(scripts)]),
                                 decode: ArkadeDecoding.subscriptionID)
    }

    /// `GET /v1/indexer/script/subscription/{id}` as server-sent events: reports each message
    /// until the stream ends, which is an error too (the caller subscribes again and compares).
    public func followSubscription(_ id: String, timeout: Duration, onEvent: @escaping @Sendable (ArkadeStreamEvent) -> Void) async throws {
        let allowed = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.~")
        guard !id.isEmpty, id.allSatisfy({ allowed.contains($0) }) else {
            throw requester.failure("/v1/indexer/script/subscribe", "the subscription id \(JSONReader.shown(id)) is not a plain token")
        }
        let path = "/v1/indexer/script/subscription/\(id)"
        try await requester.stream(path, maxResponseBytes: Int.max, accept: "text/event-stream", timeout: timeout,
                                   into: ArkadeStreamConsumer(framing: .serverSentEvents, onEvent: onEvent))
        throw requester.failure(path, "the subscription stream ended")
    }
}
