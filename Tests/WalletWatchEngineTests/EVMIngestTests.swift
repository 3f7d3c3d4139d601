import Foundation
import Testing
import TestSupport
import WalletWatchCore
import WalletWatchEngine
import WalletWatchSources
import WalletWatchStore

extension EVMChainTests {
    /// An EVM wallet on a real chain (py-evm; SPEC.md section 26): two watched addresses, the coin,
    /// a 6-decimal and an 18-decimal token, a failed transaction, an internal transfer, transfers
    /// between the two addresses. Each history mode must store what the chain says: the rows are
    /// written down here from what the test did and the fees the node reports, the balances are
    /// web3.py's (Tests/Support/evm/evm_oracle.py).
    @Suite("EVM: a wallet on a real py-evm chain", .serialized)
    struct EVMIngestTests {
        /// What the scenario did, and the rows it must produce.
        struct Wallet {
            let alice: String
            let bob: String
            let carol: String
            let usdc: String
            let dai: String
            /// `hash amount fee status` of the coin's rows, the USDC rows, the DAI rows.
            var native: [String] = []
            var usdcRows: [String] = []
            var daiRows: [String] = []

            var addresses: [String] { [alice, bob] }
            func tokens() -> [EVMSourceConfig.Token] {
                [EVMSourceConfig.Token(contract: EVMAddress(usdc)!, currency: "USDC", asset: "eth USDC"),
                 EVMSourceConfig.Token(contract: EVMAddress(dai)!, currency: "DAI", asset: "eth DAI")]
            }
        }

        static let twelveETH: Int128 = 12_345_678_901_234_567_891
        static let bigDAI: Int128 = 1_000_000_000_000_000_000_000_000

        /// Builds the scenario on the shared chain with fresh accounts, then mines past finality.
        static func wallet(_ world: EVMWorld) async throws -> Wallet {
            let node = world.node
            let alice = try await world.account("alice")
            let bob = try await world.account("bob")
            let carol = try await world.account("carol", wei: "5000000000000000000")
            let usdc = try await node.control("deployToken", ["name": "USD Coin", "symbol": "USDC", "decimals": 6])["address"] as! String
            let dai = try await node.control("deployToken", ["name": "Dai", "symbol": "DAI", "decimals": 18])["address"] as! String
            var wallet = Wallet(alice: alice, bob: bob, carol: carol, usdc: usdc, dai: dai)
            func native(_ reply: EVMReply, _ amount: Int128, fee: Bool) {
                let paid = reply.amount("fee")
                wallet.native.append("\(reply.hash) \(fee ? amount - paid : amount) \(fee ? "\(paid)" : "-") confirmed")
            }
            native(try await node.control("fund", ["to": alice, "value": "\(twelveETH)"]), twelveETH, fee: false)
            native(try await node.control("fund", ["to": bob, "value": "1000000000000000000"]), 1_000_000_000_000_000_000, fee: false)
            let mint = try await node.control("mintToken", ["token": usdc, "to": alice, "amount": "1000000000"])
            wallet.usdcRows.append("\(mint.hash) 1000000000 - confirmed")
            let mintDAI = try await node.control("mintToken", ["token": dai, "to": bob, "amount": "\(bigDAI)"])
            wallet.daiRows.append("\(mintDAI.hash) \(bigDAI) - confirmed")
            // Between the two watched addresses: no USDC row, the fee on the coin.
            native(try await node.control("tokenTransfer", ["token": usdc, "from": alice, "to": bob, "amount": "250000000"]), 0, fee: true)
            let out = try await node.control("tokenTransfer", ["token": usdc, "from": alice, "to": carol, "amount": "100000000"])
            native(out, 0, fee: true)
            wallet.usdcRows.append("\(out.hash) -100000000 - confirmed")
            // More than alice holds: it fails, and pays its fee.
            let failed = try await node.control("tokenTransfer", ["token": usdc, "from": alice, "to": carol, "amount": "1000000000000"])
            #expect(failed["status"] as? Int == 0)
            native(failed, 0, fee: true)
            // A contract pays bob: an internal transfer.
            let forwarder = try await node.control("deployForwarder", ["from": carol])["address"] as! String
            native(try await node.control("forward", ["forwarder": forwarder, "from": carol, "to": bob, "value": "123456789"]), 123_456_789, fee: false)
            native(try await node.control("transfer", ["from": bob, "to": carol, "value": "500000000000000000"]), -500_000_000_000_000_000, fee: true)
            native(try await node.control("transfer", ["from": alice, "to": bob, "value": "1000000000000000000"]), 0, fee: true)
            let dust = try await node.control("tokenTransfer", ["token": dai, "from": bob, "to": carol, "amount": "1"])
            native(dust, 0, fee: true)
            wallet.daiRows.append("\(dust.hash) -1 - confirmed")
            try await world.mine()
            wallet.native.sort()
            wallet.usdcRows.sort()
            wallet.daiRows.sort()
            return wallet
        }

        /// The oracle's finalized and latest sums over the wallet's addresses: the coin, USDC, DAI.
        static func oracleBalances(_ world: EVMWorld, _ wallet: Wallet) throws -> [(counted: Int128, pending: Int128)] {
            let oracle = try world.oracle(addresses: wallet.addresses, tokens: [wallet.usdc, wallet.dai])
            func sums(_ figures: JSONValue?) -> (Int128, Int128) {
                guard case .object(let members)? = figures else { return (-1, -1) }
                let finalized = members.compactMap { $0.value["finalized"]?.integer }.reduce(0, +)
                let latest = members.compactMap { $0.value["latest"]?.integer }.reduce(0, +)
                return (finalized, latest - finalized)
            }
            guard case .object(let tokens)? = oracle["tokens"] else { return [] }
            let byToken = Dictionary(tokens.map { ($0.key.lowercased(), $0.value) }) { first, _ in first }
            return [sums(oracle["native"]), sums(byToken[wallet.usdc.lowercased()]?["balances"]), sums(byToken[wallet.dai.lowercased()]?["balances"])]
        }

        static func check(_ world: EVMWorld, _ wallet: Wallet, history: EVMSourceConfig.History, blockscout: Bool = false) async throws {
            let source = world.source(addresses: wallet.addresses, tokens: wallet.tokens(), history: history, blockscout: blockscout)
            let engine = world.engine(sources: [source])
            let report = try #require(try await engine.ingestor.ingest().first)
            #expect(report.ok, "\(report.error ?? "")")
            #expect(report.warnings.isEmpty, "\(report.warnings)")
            if history == .none {
                // The node alone finds the token transfers and the fees of what the wallet sent
                // with them; everything else of the coin is one adjustment.
                let rows = try world.ledger("eth ETH")
                #expect(rows.filter { $0.hasPrefix("adjustment") }.count == 1, "\(rows)")
            } else {
                #expect(try world.ledger("eth ETH") == wallet.native)
            }
            #expect(try world.ledger("eth USDC") == wallet.usdcRows)
            #expect(try world.ledger("eth DAI") == wallet.daiRows)
            let oracle = try oracleBalances(world, wallet)
            for (asset, expected) in zip(["eth ETH", "eth USDC", "eth DAI"], oracle) {
                let stored = try #require(try world.balance(asset))
                #expect(stored.counted == expected.counted && stored.pending == expected.pending, "\(asset): \(stored) vs web3 \(expected)")
                let rows = try world.database.transactions().filter { $0.assetName == asset && $0.transaction.status == .confirmed }
                #expect(rows.map(\.transaction.amount).reduce(0, +) == expected.counted, "\(asset): the rows add up to the balance")
            }
            #expect(try world.balance("eth DAI")?.counted == bigDAI - 1)

            // Nothing changed: one request, eth_blockNumber, as the node counts it.
            _ = try await world.node.control("requestStats", ["reset": true])
            let again = try #require(try await engine.ingestor.ingest().first)
            #expect(again.ok && again.requests == 1 && again.historyRequests == 0, "\(again)")
            let stats = try await world.node.control("requestStats")
            #expect(stats["httpRequests"] as? Int == 1, "\(stats)")
            #expect((stats["methods"] as? [String: Any])?["eth_blockNumber"] as? Int == 1, "\(stats)")
        }

        @Test("through Etherscan's API V2: every row, fee and balance as the chain has them")
        func etherscan() async throws {
            let world = try await EVMWorld()
            try await Self.check(world, try await Self.wallet(world), history: .etherscan)
        }

        @Test("through a Blockscout's /api: the same")
        func blockscout() async throws {
            let world = try await EVMWorld()
            try await Self.check(world, try await Self.wallet(world), history: .etherscan, blockscout: true)
        }

        @Test("through the node's Otterscan namespace: the same")
        func otterscan() async throws {
            let world = try await EVMWorld()
            try await Self.check(world, try await Self.wallet(world), history: .otterscan)
        }

        @Test("through the node alone: tokens from its logs, the coin's unexplained change one adjustment")
        func nodeAlone() async throws {
            let world = try await EVMWorld()
            try await Self.check(world, try await Self.wallet(world), history: .none)
        }
    }
}
