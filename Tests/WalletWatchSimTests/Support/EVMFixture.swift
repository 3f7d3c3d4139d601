import Foundation
@testable import WalletWatchSim

/// The EVM face's tests' scenario and a JSON-RPC client over ``HTTPProbe``.
enum EVMFixture {
    /// 2026-01-01T00:00:00Z, the test node's genesis time in these tests.
    static let genesis: Int64 = 1_767_225_600
    static let ether: Int128 = 1_000_000_000_000_000_000
    /// An amount that needs every one of ether's 18 decimals (issue 27's example).
    static let carolsEther: Int128 = 12_345_678_901_234_567_891
    static let daiMint: Int128 = 1_000_000_000_000_000_000_000_000

    /// A chain of nine blocks, finalized two below the tip: alice funded with 5 ETH (block 1),
    /// bob with 1 ETH (2), 1,000 USDC minted to alice (3), 2 USDC from alice to bob (4), bob's
    /// transfer of 9 USDC that reverts (5), 123 wei from bob to alice through the forwarder (6),
    /// 10^24 DAI units minted to bob and 12.345678901234567891 ETH to carol (7), two empty
    /// blocks, and 1,000 wei from alice to bob waiting in the mempool.
    static var scenario: EVMScenario {
        EVMScenario(
            chainID: 1, genesisTime: SimTime(unixSeconds: genesis), finalityDepth: 2, tipHeight: 9,
            accounts: [EVMAccountSpec(name: "alice"), EVMAccountSpec(name: "bob"), EVMAccountSpec(name: "carol")],
            tokens: [EVMTokenSpec(symbol: "USDC", name: "USD Coin", decimals: 6), EVMTokenSpec(symbol: "DAI", name: "Dai Stablecoin", decimals: 18)],
            transactions: [
                EVMTransactionSpec(.transfer, to: "alice", value: EVMAmount(5 * ether)),
                EVMTransactionSpec(.transfer, to: "bob", value: EVMAmount(ether)),
                EVMTransactionSpec(.mint, to: "alice", amount: 1_000_000_000, token: "USDC"),
                EVMTransactionSpec(.tokenTransfer, from: "alice", to: "bob", amount: 2_000_000, token: "USDC"),
                EVMTransactionSpec(.tokenTransfer, from: "bob", to: "alice", amount: 9_000_000, token: "USDC"),
                EVMTransactionSpec(.internal, from: "bob", to: "alice", value: 123),
                EVMTransactionSpec(.mint, to: "bob", amount: EVMAmount(daiMint), token: "DAI"),
                EVMTransactionSpec(.transfer, to: "carol", value: EVMAmount(carolsEther), block: 7),
                EVMTransactionSpec(.transfer, from: "alice", to: "bob", value: 1_000, pending: true),
            ])
    }

    static func simulator(_ evm: EVMScenario = scenario) -> Scenario {
        Scenario(now: SimTime(unixSeconds: genesis + 9 * 12), evm: evm)
    }

    /// One JSON-RPC call's whole answer.
    static func call(_ sim: Simulator, _ method: String, _ params: [Any] = [], id: Any = 1) async throws -> [String: Any] {
        let body = try JSONSerialization.data(withJSONObject: ["jsonrpc": "2.0", "id": id, "method": method, "params": params],
                                              options: [.withoutEscapingSlashes])
        let answer = try await post(sim, Array(body))
        guard let object = answer.object else { throw HTTPProbe.Failure(description: "\(method): not a JSON object: \(answer.text)") }
        return object
    }

    /// One JSON-RPC call's result (throws on an error answer).
    static func result(_ sim: Simulator, _ method: String, _ params: [Any] = []) async throws -> Any {
        let answer = try await call(sim, method, params)
        guard let result = answer["result"] else { throw HTTPProbe.Failure(description: "\(method) \(params): \(answer)") }
        return result
    }

    /// A quantity result as an integer.
    static func quantity(_ sim: Simulator, _ method: String, _ params: [Any] = []) async throws -> Int128 {
        let result = try await result(sim, method, params)
        guard let text = result as? String, text.hasPrefix("0x"), let value = Int128(text.dropFirst(2), radix: 16) else {
            throw HTTPProbe.Failure(description: "\(method): not a quantity: \(result)")
        }
        return value
    }

    static func post(_ sim: Simulator, _ body: [UInt8], path: String = "") async throws -> ProbeResult {
        try await HTTPProbe.send("POST", sim.evmURL + path, headers: ["Content-Type": "application/json"], body: body)
    }

    /// An explorer request's answer (`query` without the leading `?`).
    static func explorer(_ url: String, _ query: String) async throws -> [String: Any] {
        let answer = try await HTTPProbe.get(url + "?" + query)
        guard let object = answer.object else { throw HTTPProbe.Failure(description: "\(query): not a JSON object: \(answer.text)") }
        return object
    }

    /// `value` as a 32-byte ABI word's hex digits.
    static func word(_ value: Int128) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 64 - digits.count) + digits
    }
}
