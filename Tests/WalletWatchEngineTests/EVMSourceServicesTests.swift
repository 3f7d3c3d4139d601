import Foundation
import Testing
import TestSupport
import WalletWatchCore
import WalletWatchEngine
import WalletWatchSources
import WalletWatchStore

extension EVMChainTests {
    /// What else an evm source takes part in: the balance cache (SPEC.md section 6b), doctor
    /// (reachability, chain, privacy, tokens seen but not watched), and a provider URL that holds
    /// a key, which nothing prints.
    @Suite("EVM: the balance cache, doctor, and a URL that holds a key", .serialized)
    struct EVMSourceServicesTests {
        @Test("balance answers from the store while fresh, asks the node on --refresh, and shows stored figures as stale when the node is gone")
        func balanceCache() async throws {
            let world = try await EVMWorld()
            let holder = try await world.account("cache", wei: "1000000000000000000")
            let usdc = try await world.node.control("deployToken", ["name": "USD Coin", "symbol": "USDC", "decimals": 6])["address"] as! String
            _ = try await world.node.control("mintToken", ["token": usdc, "to": holder, "amount": "7000000"])
            try await world.mine()
            let source = world.source(addresses: [holder], tokens: [EVMSourceConfig.Token(contract: EVMAddress(usdc)!, currency: "USDC", asset: "eth USDC")],
                                      history: .none)
            let engine = world.engine(sources: [source])
            _ = try await engine.ingestor.ingest()
            _ = try await world.node.control("requestStats", ["reset": true])
            let cached = try await engine.balances.current(refresh: false)
            #expect(cached.sources.first?.fromCache == true)
            #expect((try await world.node.control("requestStats"))["httpRequests"] as? Int == 0, "a fresh cache asks nothing")
            _ = try await world.node.control("fund", ["to": holder, "value": "5"])
            _ = try await world.node.control("mintToken", ["token": usdc, "to": holder, "amount": "3"])
            try await world.mine()
            // One more payment at the tip only: pending until final.
            _ = try await world.node.control("mintToken", ["token": usdc, "to": holder, "amount": "40"])
            let refreshed = try await engine.balances.current(refresh: true)
            #expect(refreshed.sources.first?.fromCache == false)
            let asset = try #require(refreshed.assets.first { $0.asset.name == "eth ETH" })
            #expect(asset.balance.counted == 1_000_000_000_000_000_005)
            let token = try #require(refreshed.assets.first { $0.asset.name == "eth USDC" })
            #expect(token.balance.counted == 7_000_003 && token.balance.pending == 40, "\(token.balance)")
            #expect(try world.ledger("eth ETH").count == 1, "a balance refresh stores no rows")
            #expect(try world.ledger("eth USDC").count == 1)

            // The node gone: the stored figures, marked stale.
            var gone = source
            gone.url = "http://127.0.0.1:\(unusedLoopbackPort())"
            let stale = try await world.engine(sources: [gone]).balances.current(refresh: true)
            #expect(stale.sources.first?.stale == true && !stale.warnings.isEmpty, "\(stale.warnings)")
            #expect(stale.assets.first { $0.asset.name == "eth ETH" }?.balance.counted == 1_000_000_000_000_000_005)
        }

        @Test("doctor names the chain, says what each history mode reveals, and lists tokens seen but not watched")
        func doctor() async throws {
            let world = try await EVMWorld()
            let holder = try await world.account("doctor", wei: "1000000000000000000")
            let spam = try await world.node.control("deployToken", ["name": "Free Money", "symbol": "FREE", "decimals": 18])["address"] as! String
            _ = try await world.node.control("mintToken", ["token": spam, "to": holder, "amount": "1000"])
            try await world.mine()
            let explorer = world.source(addresses: [holder], history: .etherscan)
            let engine = world.engine(sources: [explorer])
            _ = try await engine.ingestor.ingest()
            #expect(try world.database.assetOverviews().map(\.asset.name) == ["eth ETH"], "an unlisted token is never an asset")
            let check = try #require(await engine.doctor.run().first { $0.name == "source eth" })
            #expect(check.ok, "\(check.detail)")
            #expect(check.detail.contains("ethereum (1)"), "\(check.detail)")
            #expect(check.detail.contains("the explorer at \(world.node.etherscanURL) learns the addresses"), "\(check.detail)")
            #expect(check.detail.contains(spam.lowercased()), "\(check.detail)")
            for (history, says) in [(EVMSourceConfig.History.otterscan, "nothing else is asked"), (.none, "nothing else is asked")] {
                let own = try #require(await world.engine(sources: [world.source(addresses: [holder], history: history)]).doctor.run().first { $0.name == "source eth" })
                #expect(own.ok && own.detail.contains(says) && !own.detail.contains("explorer"), "\(own.detail)")
            }
            // A chain Etherscan's free tier does not serve: doctor says what to use instead.
            var base = explorer
            base.evm?.chainName = "base"
            base.evm?.chainID = 8453
            let paid = try #require(await world.engine(sources: [base]).doctor.run().first { $0.name == "source eth" })
            #expect(paid.detail.contains("Etherscan's free tier does not serve base: use a paid key or a Blockscout"), "\(paid.detail)")
            #expect(!paid.ok && paid.detail.contains("the node serves chain id 1, but the source is configured for base (8453)"), "\(paid.detail)")
            // A node that answers for another chain fails the check.
            _ = try await world.node.control("setFaults", ["chainId": 10])
            let wrong = try #require(await engine.doctor.run().first { $0.name == "source eth" })
            _ = try await world.node.control("clearFaults")
            #expect(!wrong.ok && wrong.detail.contains("chain id 10"), "\(wrong.detail)")
        }

        @Test("a URL from url_file that holds a key is never printed: not in errors, reports or the doctor")
        func secretURL() async throws {
            let world = try await EVMWorld()
            let holder = try await world.account("secret", wei: "1000")
            try await world.mine()
            let key = "k3y-\(UUID().uuidString)"
            let file = world.folder.write("rpc.url", "\(world.node.url)/v3/\(key)\n")
            var source = world.source(addresses: [holder], history: .none)
            source.url = "http://127.0.0.1/"
            source.evm?.urlSecret = .file(file)
            let engine = world.engine(sources: [source])
            let report = try #require(try await engine.ingestor.ingest().first)
            #expect(report.ok, "\(report.error ?? "")")
            _ = try await world.node.control("setFaults", ["rpcError": ["eth_getBalance": "over quota"]])
            _ = try await world.node.control("fund", ["to": holder, "value": "1"])
            let failed = try #require(try await world.engine(sources: [source]).ingestor.ingest().first)
            let checks = await engine.doctor.run()
            _ = try await world.node.control("clearFaults")
            #expect(!failed.ok && (failed.error ?? "").contains("over quota"), "\(failed.error ?? "")")
            #expect(!(failed.error ?? "").contains(key))
            #expect(!checks.map(\.detail).joined().contains(key))
            #expect(!world.logs.entries.map { "\($0.message) \($0.metadata)" }.joined().contains(key))
        }

        @Test("an Etherscan API key from api_key_file is never printed: not in errors, reports, the doctor or the logs")
        func apiKey() async throws {
            let world = try await EVMWorld()
            let holder = try await world.account("apikey", wei: "1000")
            try await world.mine()
            let key = "ETHERSCANKEY\(UUID().uuidString.replacingOccurrences(of: "-", with: ""))"
            let file = world.folder.write("etherscan.key", key + "\n")
            var source = world.source(addresses: [holder], history: .etherscan)
            source.evm?.apiKey = .file(file)
            let report = try #require(try await world.engine(sources: [source]).ingestor.ingest().first)
            #expect(report.ok, "\(report.error ?? "")")
            _ = try await world.node.control("setFaults", ["etherscanChainUnsupported": true])
            _ = try await world.node.control("fund", ["to": holder, "value": "1"])
            try await world.mine()
            let failed = try #require(try await world.engine(sources: [source]).ingestor.ingest().first)
            let checks = await world.engine(sources: [source]).doctor.run()
            _ = try await world.node.control("clearFaults")
            let error = failed.error ?? ""
            #expect(!failed.ok && error.contains("apikey=<redacted>") && error.contains("Free API access"), "\(error)")
            #expect(!error.contains(key))
            #expect(!checks.map(\.detail).joined().contains(key))
            let logged = world.logs.entries.map { "\($0.message) \($0.metadata)" }.joined(separator: "\n")
            #expect(logged.contains("apikey=<redacted>"), "the explorer's URLs are logged, the key replaced")
            #expect(!logged.contains(key))
        }
    }
}
