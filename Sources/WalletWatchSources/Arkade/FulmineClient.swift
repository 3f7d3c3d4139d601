import Foundation
import WalletWatchCore
import WalletWatchNet

/// Reads an Arkade wallet through Fulmine's REST gateway (`http://HOST:7001/api`, SPEC.md
/// section 27), strictly, against the OpenAPI document pinned from Fulmine v0.3.24. The API has
/// no authentication: no credential is ever sent.
public struct FulmineClient: Sendable {
    let requester: SourceRequester

    /// - parameter baseURL: the gateway's URL, `/api` included, e.g. `http://127.0.0.1:7001/api`.
    public init(source: String, baseURL: String, http: any HTTPClient, route: NetworkRoute? = nil) {
        requester = SourceRequester(source: source, baseURL: baseURL, token: nil, http: http, route: route)
    }

    public var source: String { requester.source }

    /// `GET /v1/balance`: the offchain total in sats.
    public func balance() async throws -> Int64 {
        try await requester.get("/v1/balance", decode: ArkadeDecoding.fulmineBalance)
    }

    /// `GET /v1/transactions`.
    public func transactions() async throws -> [FulmineTransaction] {
        try await requester.get("/v1/transactions", decode: ArkadeDecoding.fulmineTransactions)
    }

    /// `GET /v1/vtxos`: every VTXO of the wallet, spent ones included.
    public func vtxos() async throws -> [ArkadeVtxo] {
        try await requester.get("/v1/vtxos", decode: ArkadeDecoding.vtxoList)
    }

    /// `GET /v1/info`.
    public func info() async throws -> ArkadeInfo {
        try await requester.get("/v1/info", decode: ArkadeDecoding.fulmineInfo)
    }

    /// `POST /v1/subscribe`: the notification stream carries the VTXO events of these
    /// addresses (Fulmine keeps the list).
    public func subscribe(addresses: [String]) async throws {
        try await requester.post("/v1/subscribe", json: JSONText.object(["addresses": .strings(addresses)])) { reader in
            try reader.skipValue()
        }
    }

    /// `GET /v1/notifications`: follows the stream, reporting each message, until it ends,
    /// which is an error too (the server closed it, or `timeout` passed): the caller opens
    /// another and compares again.
    public func followNotifications(timeout: Duration, onEvent: @escaping @Sendable (ArkadeStreamEvent) -> Void) async throws {
        try await requester.stream("/v1/notifications", maxResponseBytes: Int.max, timeout: timeout,
                                   into: ArkadeStreamConsumer(framing: .jsonLines, onEvent: onEvent))
        throw requester.failure("/v1/notifications", "the notification stream ended")
    }
}

/// Writes the small JSON bodies of Arkade's POST requests.
enum JSONText {
    indirect enum Value { case string(String), strings([String]) }

    static func object(_ fields: KeyValuePairs<String, Value>) -> [UInt8] {
        let members = fields.map { key, value in
            let text = switch value {
            case .string(let string): quoted(string)
            case .strings(let strings): "[" + strings.map(quoted).joined(separator: ",") + "]"
            }
            return quoted(key) + ":" + text
        }
        return Array(("{" + members.joined(separator: ",") + "}").utf8)
    }

    /// `text` as a JSON string (addresses, scripts and ids are ASCII; anything else is escaped,
    /// a character beyond the BMP as its UTF-16 surrogate pair, as JSON requires).
    static func quoted(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case _ where scalar.value < 0x20 || scalar.value > 0x7e:
                for unit in String(scalar).utf16 { result += String(format: "\\u%04x", unit) }
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }
}
