import Crypto
import WalletWatchBitcoin

/// What the simulator's Arkade faces serve (SPEC.md section 27): one Ark server (arkd) whose
/// indexer holds every VTXO, and Fulmine wallets whose VTXOs are among them. Changes come from
/// the control API (``ArkadeControlRoutes``) and reach the streams of both faces.
struct ArkadeWorld: Sendable {
    /// arkd's name for the network: `bitcoin` (addresses `ark1`) or a test network's (`tark1`).
    var network: String
    /// The server's x-only signer key.
    let signerKey: [UInt8]
    var vtxos: [SimArkVtxo] = []
    var wallets: [String: SimFulmineWallet] = [:]
    /// arkd's script subscriptions by id.
    var subscriptions: [String: Set<String>] = [:]
    /// The fault the faces serve next, if any.
    var fault: ArkadeFault?
    private var counter: UInt64 = 0

    init(network: String) {
        self.network = network
        signerKey = ArkadeKeys.xOnly(seed: "walletwatch-sim arkd signer")
    }

    var addressPrefix: String { network == "bitcoin" ? "ark" : "tark" }
    var addressNetwork: Network { network == "bitcoin" ? .bitcoin : .testnet }

    /// The signer key as arkd gives it: compressed (33 bytes, even y), hex.
    var signerPubkeyHex: String { "02" + Hex.encode(signerKey) }

    /// A new txid, the same from run to run.
    mutating func newTxid() -> String {
        counter += 1
        return Hex.encode(SHA256.hash(data: Array("walletwatch-sim arkade tx \(counter)".utf8)))
    }

    /// The address of an x-only key under this server.
    func address(ofKey key: [UInt8]) -> String {
        ArkAddress.encode(network: addressNetwork, signerKey: signerKey, vtxoTaprootKey: key)
    }

    /// The wallet called `name`, made when new (its key from its name).
    mutating func wallet(_ name: String) -> SimFulmineWallet {
        if let wallet = wallets[name] { return wallet }
        let key = ArkadeKeys.xOnly(seed: "walletwatch-sim fulmine \(name)")
        let wallet = SimFulmineWallet(name: name, key: key)
        wallets[name] = wallet
        return wallet
    }

    func vtxos(ofScripts scripts: Set<String>) -> [SimArkVtxo] { vtxos.filter { scripts.contains($0.script) } }

    static let networks = ["bitcoin", "testnet", "testnet4", "signet", "mutinynet", "regtest"]

    /// The world a scenario starts with: its network, wallets and payments.
    init(scenario: ArkadeScenario?, now: SimTime) throws {
        self.init(network: scenario?.network ?? "bitcoin")
        guard let scenario else { return }
        guard Self.networks.contains(scenario.network) else {
            throw SimulatorError(.invalid, "arkade.network \(scenario.network) is not one arkd names (\(Self.networks.joined(separator: ", ")))")
        }
        for name in scenario.fulmineWallets {
            guard Self.isName(name) else { throw SimulatorError(.invalid, "arkade.fulmine_wallets: \(name) is not a name (letters, digits, '-', '_', '.')") }
            _ = wallet(name)
        }
        for receipt in scenario.receipts {
            _ = try receive(wallet: receipt.wallet, address: receipt.address, amount: receipt.amount, batch: receipt.batch ?? false, now: now)
        }
    }

    /// A payment of `amount` to a Fulmine wallet (its history records it) or an Ark address: a
    /// new VTXO, preconfirmed by an Ark transaction, or out of a batch.
    mutating func receive(wallet: String?, address: String?, amount: Int64, batch: Bool, now: SimTime) throws -> SimArkVtxo {
        guard amount > 0 else { throw SimulatorError(.invalid, "amount must be positive") }
        let script: String
        switch (wallet, address) {
        case (let name?, nil):
            guard Self.isName(name) else { throw SimulatorError(.invalid, "wallet names are letters, digits, '-', '_' or '.'") }
            script = self.wallet(name).script
        case (nil, let text?):
            let decoded: ArkAddress
            do { decoded = try ArkAddress(text) } catch { throw SimulatorError(.invalid, "address \(error)") }
            guard decoded.hrp == addressPrefix else {
                throw SimulatorError(.invalid, "address is not of this server's network (\(network): \(addressPrefix)1...)")
            }
            script = decoded.vtxoScriptHex
        default:
            throw SimulatorError(.invalid, "give exactly one of wallet and address")
        }
        let seconds = now.milliseconds / 1000
        let txid = newTxid()
        let commitment = newTxid()
        let vtxo = SimArkVtxo(txid: txid, vout: 0, amount: amount, script: script, createdAt: seconds, expiresAt: seconds + 30 * 86_400,
                              isPreconfirmed: !batch, commitmentTxids: [commitment])
        vtxos.append(vtxo)
        if let wallet {
            wallets[wallet]!.transactions.append(SimFulmineTx(
                date: now, amount: amount, kind: .received, commitmentTxid: batch ? commitment : "", arkTxid: batch ? "" : txid))
        }
        return vtxo
    }

    static func isName(_ text: String) -> Bool {
        !text.isEmpty && text.count <= 64 && text.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "-_.".contains($0)) }
    }
}

/// One VTXO the server knows.
struct SimArkVtxo: Sendable, Hashable {
    var txid: String
    var vout: Int
    var amount: Int64
    var script: String
    var createdAt: Int64
    var expiresAt: Int64
    var isPreconfirmed: Bool
    var isSwept = false
    var isUnrolled = false
    var isSpent = false
    var spentBy = ""
    var settledBy = ""
    var arkTxid = ""
    var commitmentTxids: [String]

    var outpoint: String { "\(txid):\(vout)" }

    /// As the indexer (`indexer`) or Fulmine writes it.
    func wire(indexer: Bool, amountText: String? = nil) -> ArkadeVtxoWire {
        ArkadeVtxoWire(
            outpoint: ArkadeOutpointWire(txid: txid, vout: vout), createdAt: String(createdAt), expiresAt: String(expiresAt),
            amount: amountText ?? String(amount), script: script, isPreconfirmed: isPreconfirmed, isSwept: isSwept, isUnrolled: isUnrolled,
            isSpent: isSpent, spentBy: spentBy, commitmentTxids: commitmentTxids, settledBy: settledBy, arkTxid: arkTxid,
            assets: indexer ? [] : nil, depth: indexer ? (isPreconfirmed ? 1 : 0) : nil)
    }
}

/// A Fulmine wallet: one key (its receiving script) and its history.
struct SimFulmineWallet: Sendable {
    let name: String
    let key: [UInt8]
    var transactions: [SimFulmineTx] = []
    /// Addresses subscribed with `POST /v1/subscribe`: their VTXO events reach the stream.
    var subscribed: Set<String> = []

    var script: String { "5120" + Hex.encode(key) }
}

/// One `TransactionInfo` of a Fulmine wallet.
struct SimFulmineTx: Sendable, Hashable {
    enum Kind: String, Sendable { case sent = "TX_TYPE_SENT", received = "TX_TYPE_RECEIVED" }
    /// Nil: Go's zero time (a boarding deposit in the mempool).
    var date: SimTime?
    var amount: Int64
    var kind: Kind
    var commitmentTxid = ""
    var arkTxid = ""
    var boardingTxid = ""
    var settledBy = ""
}

/// A fault of the Arkade faces, for the next `times` answers it applies to.
public struct ArkadeFault: Sendable, Hashable, Codable {
    public enum Kind: String, Sendable, Codable, CaseIterable {
        /// A notification or subscription stream ends as soon as it is opened.
        case streamEnds = "stream_ends"
        /// The indexer answers a later page with the VTXOs of the page before.
        case pageRepeats = "page_repeats"
        /// Fulmine's history names a transaction type its API does not have.
        case unknownEnum = "unknown_enum"
        /// Amounts are written as strings that are not integers (`"1500.5"`).
        case amountNotInteger = "amount_not_integer"
    }

    public var kind: Kind
    public var times: Int?

    public init(_ kind: Kind, times: Int? = nil) {
        self.kind = kind
        self.times = times
    }
}

/// Deterministic x-only keys for the simulator (never private keys: only their x is known).
enum ArkadeKeys {
    /// The first valid x-only key at or after SHA-256 of `seed`: an Ark address made of it
    /// decodes, which checks that the x is on the curve.
    static func xOnly(seed: String) -> [UInt8] {
        var key = Array(SHA256.hash(data: Array(seed.utf8)))
        let probe = ArkadeKeys.probeSigner
        while (try? ArkAddress(ArkAddress.encode(network: .bitcoin, signerKey: probe, vtxoTaprootKey: key))) == nil {
            for index in key.indices.reversed() {
                key[index] &+= 1
                if key[index] != 0 { break }
            }
        }
        return key
    }

    /// A known valid x-only key (the generator point's x), to test the other one alone.
    static let probeSigner: [UInt8] = Hex.decode("79be667ef9dcbbac55a06295ce870b07029bfcdb2dce28d959f2815b16f81798")!
}
