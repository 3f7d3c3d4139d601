import Crypto
import Foundation
import TestSupport
import Testing
import WalletWatchBitcoin
@testable import WalletWatchSim

/// A real chain (a scenario's `bitcoin` section) for the Electrum and Core faces' tests, and the
/// computations the tests make on their own: scripthashes, statuses and txids hashed here with
/// swift-crypto, not with the simulator's code.
enum ChainFixture {
    /// Regtest addresses of each kind, of keys nobody holds.
    static let p2wpkh = address(Script.p2wpkh(publicKey: key(1)))
    static let p2pkh = address(Script.p2pkh(publicKey: key(2)))
    static let p2sh = address(Script.p2sh(redeemScript: Script.p2wpkh(publicKey: key(3))))
    static let p2tr = address(Script.p2tr(outputKey: Array(key(4).dropFirst())))
    static let p2wsh = address(Script.p2wsh(witnessScript: Script.multi(threshold: 1, publicKeys: [key(5)])))

    /// A compressed-key-shaped 33 bytes.
    static func key(_ n: UInt8) -> [UInt8] { [0x02] + (0..<32).map { UInt8(truncatingIfNeeded: Int($0) * 7 + Int(n) * 31) } }

    static func address(_ script: [UInt8]) -> String { Address(scriptPubKey: script, network: .regtest)!.description }

    /// A real chain of `tip` blocks, with `esplora`'s content.
    static func scenario(tip: Int = 150, esplora: EsploraScenario = EsploraScenario()) -> Scenario {
        Scenario(tipHeight: tip, esplora: esplora, bitcoin: BitcoinScenario())
    }

    /// The script an address pays to (any network).
    static func script(_ address: String) -> [UInt8] {
        for network in [Network.regtest, .bitcoin, .testnet] {
            if let decoded = try? Address(address, network: network) { return decoded.scriptPubKey }
        }
        Issue.record("\(address) is not an address")
        return []
    }

    /// The Electrum scripthash of `address`: SHA-256 of its script, bytes reversed, hex.
    static func scripthash(_ address: String) -> String { hex(SHA256.hash(data: script(address)).reversed()) }

    /// protocol-basics' status of a history given as (txid, height) pairs, in order.
    static func status(_ history: [(String, Int)]) -> String? {
        guard !history.isEmpty else { return nil }
        return hex(SHA256.hash(data: Array(history.map { "\($0.0):\($0.1):" }.joined().utf8)))
    }

    /// The txid of raw transaction bytes given as hex: double SHA-256 of the bytes without
    /// witnesses, reversed.
    static func txid(ofHex text: String) throws -> String {
        let raw = try RawTransaction(hex: text)
        let bytes = try #require(raw.serializedWithoutWitness)
        return hex(SHA256.hash(data: Array(SHA256.hash(data: bytes))).reversed())
    }

    /// The hash of an 80-byte header given as hex (displayed form).
    static func blockHash(ofHeader text: String) throws -> String {
        let bytes = try #require(Hex.decode(text))
        return hex(SHA256.hash(data: Array(SHA256.hash(data: bytes))).reversed())
    }

    static func hex(_ bytes: some Sequence<UInt8>) -> String { Hex.encode(bytes) }

    /// Starts a simulator of `scenario` and a client on its Electrum face (TCP, or TLS) that has
    /// negotiated `versions`; runs `body`, and stops both whatever happens.
    static func withFace<T>(
        _ scenario: Scenario, tls: Bool = false, versions: [String] = ["1.4", "1.6"],
        _ body: (Simulator, ElectrumTestClient) async throws -> T
    ) async throws -> T {
        try await Fixture.withSimulator(scenario) { sim in
            let client = try await ElectrumTestClient.connect(tls ? sim.electrumTLSURL : sim.electrumTCPURL)
            do {
                _ = try await client.call("server.version", ["walletwatch-tests", versions])
                let result = try await body(sim, client)
                await client.close()
                return result
            } catch {
                await client.close()
                throw error
            }
        }
    }
}

extension ElectrumTestClient {
    /// `method`'s result, failing the test when it is an error.
    func result(_ method: String, _ params: [Any] = []) async throws -> Any? {
        let reply = try await call(method, params)
        if let error = reply.error { Issue.record("\(method) failed: \(error.code) \(error.message)") }
        return reply.result
    }
}
