import Foundation
import Testing
import TestSupport
import WalletWatchBitcoin
import WalletWatchCore
import WalletWatchSim

/// `walletwatch source add` for the kinds beyond Bitcoin (SPEC.md sections 26-28): an `evm`
/// source, a `fulmine` wallet and an `arkd` watched address, each added in one command by the
/// built binary against the simulator's EVM, Fulmine and arkd faces, with its first pass.
@Suite("CLI: evm, fulmine and arkd sources in one command", .serialized)
struct SourceKindsCLITests {
    /// One of EIP-55's own examples (https://eips.ethereum.org/EIPS/eip-55, "Test Cases"): mixed
    /// case that passes the checksum. The simulator's wallet `savings` has this address.
    static let savings = "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed"
    /// USDC's contract on Ethereum, where the simulator deploys its USDC: the built-in `USDC` token.
    static let usdc = "0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48"
    /// The generator point's x, a valid x-only key: the watched Ark address's key.
    static let arkKey = Hex.decode("79be667ef9dcbbac55a06295ce870b07029bfcdb2dce28d959f2815b16f81798")!

    /// The simulator with an Ethereum chain (chain id 1) and an Ark server with a Fulmine
    /// wallet, and a folder for the config.
    final class World: @unchecked Sendable {
        let simulator: Simulator
        let folder = TemporaryDirectory("walletwatch-source-kinds")
        /// The Ark address watched by the arkd source: paid twice.
        let watched: String

        init() async throws {
            simulator = try await Simulator.start(scenario: Scenario(
                evm: EVMScenario(
                    chainID: 1, finalityDepth: 2, tipHeight: 40,
                    accounts: [EVMAccountSpec(name: "savings", address: WalletWatchSim.EVMAddress(SourceKindsCLITests.savings)),
                               EVMAccountSpec(name: "employer")],
                    tokens: [EVMTokenSpec(symbol: "USDC", name: "USD Coin", decimals: 6, address: WalletWatchSim.EVMAddress(SourceKindsCLITests.usdc))],
                    transactions: [
                        EVMTransactionSpec(.transfer, to: "employer", value: 5_000_000_000_000_000_000, block: 1),
                        EVMTransactionSpec(.transfer, from: "employer", to: "savings", value: 1_500_000_000_000_000_000, block: 2),
                        EVMTransactionSpec(.mint, to: "employer", amount: 100_000_000_000, token: "USDC", block: 3),
                        EVMTransactionSpec(.tokenTransfer, from: "employer", to: "savings", amount: 2_500_000_000, token: "USDC", block: 10),
                    ]),
                arkade: ArkadeScenario(network: "bitcoin", fulmineWallets: ["arkade"],
                                       receipts: [ArkadeReceipt(wallet: "arkade", amount: 120_000, batch: true), ArkadeReceipt(wallet: "arkade", amount: 42_000)])))
            watched = await simulator.arkadeAddress(ofKey: SourceKindsCLITests.arkKey)
            _ = try await simulator.arkadeReceive(address: watched, amount: 50_000, batch: true)
            _ = try await simulator.arkadeReceive(address: watched, amount: 15_000)
            folder.write("walletwatch.toml", SourceCLITests.userConfig(rates: [#""ETH/USD" = "3000""#]))
        }

        var config: String { folder.file("walletwatch.toml") }

        func bytes() throws -> [UInt8] { Array(try Data(contentsOf: URL(fileURLWithPath: config))) }

        func text() throws -> String { String(decoding: try bytes(), as: UTF8.self) }

        func cli() -> CLIRunner { CLIRunner(folder: folder) }

        deinit {
            let simulator = self.simulator
            Task { await simulator.stop() }
        }
    }

    @Test("evm: an address, a built-in token and a Blockscout history in one command; the first pass stores the coin's and the token's rows")
    func evmInOneCommand() async throws {
        let world = try await World()
        let cli = world.cli()
        let before = try world.bytes()
        let added = try await cli.run("source", "add", "eth", "--kind", "evm", "--chain", "ethereum", "--url", world.simulator.evmURL,
                                      "--address", Self.savings, "--token", "USDC", "--asset", "Ether", "--token-asset", "USDC=Stable savings",
                                      "--history", "etherscan", "--history-url", world.simulator.blockscoutURL, "--json")
        #expect(added.status == 0, "\(added.stderr)")
        let after = try world.bytes()
        #expect(Array(after.prefix(before.count)) == before, "every byte already there, comments included, is kept")
        let block = String(decoding: after.dropFirst(before.count), as: UTF8.self)
        // The config did not end its last line: it is ended, then a blank line, then the block.
        #expect(block == """


            [[sources]]
            # added by `walletwatch source add` on 2026-11-21
            name = "eth"
            kind = "evm"
            url = "\(world.simulator.evmURL)"
            chain = "ethereum"
            asset = "Ether"
            addresses = ["\(Self.savings)"]
            tokens = ["USDC"]
            token_assets = { USDC = "Stable savings" }
            history = "etherscan"
            history_url = "\(world.simulator.blockscoutURL)"

            """, "the block, its keys named as the flags: \(block)")
        // One row each: 1.5 ether and 2,500 USDC received (the scenario's transactions).
        let entry = try #require(SourceCLITests.ingestEntry(added, "eth"))
        #expect(entry["ok"] as? Bool == true && entry["new"] as? Int == 2, "\(entry)")
        let source = try #require((added.object?["added"] as? [[String: Any]])?.first)
        #expect(Set(source["assets"] as? [String] ?? []) == ["Ether", "Stable savings"] && source["kind"] as? String == "evm", "\(source)")
        let detail = (added.object?["checks"] as? [[String: Any]])?.first?["detail"] as? String ?? ""
        #expect(detail.contains("the node answers for ethereum (1)") && detail.contains("learns the addresses"), "the doctor's evm check: \(detail)")

        let balance = try await cli.run("balance", "--json")
        #expect(balance.stdout.contains("1500000000000000000") && balance.stdout.contains("2500000000"), "\(balance.stdout)")
        let list = try await cli.run("source", "list", "--json")
        let row = try #require(list.objects?.first)
        #expect(row["name"] as? String == "eth" && row["kind"] as? String == "evm" && row["state"] as? String == "ok"
                && Set(row["assets"] as? [String] ?? []) == ["Ether", "Stable savings"], "an evm source feeds its coin and each token: \(row)")
        let table = try await cli.run("source", "list")
        #expect(table.stdout.contains("evm") && table.stdout.contains("Ether") && table.stdout.contains("Stable savings"), "\(table.stdout)")
    }

    @Test("evm: a provider's URL with its key is refused as --url; from --url-file it is written as url_file, never printed; --no-ingest lists the configured assets")
    func evmURLFromFile() async throws {
        let world = try await World()
        let cli = world.cli()
        let before = try world.bytes()
        let key = "0123456789abcdef0123456789abcdef"
        let inArgv = try await cli.run("source", "add", "eth", "--kind", "evm", "--chain", "ethereum", "--url", "https://mainnet.infura.io/v3/\(key)",
                                       "--address", Self.savings)
        #expect(inArgv.status == 64 && inArgv.stderr.contains("give --url-file FILE") && !inArgv.stderr.contains(key), "\(inArgv.stderr)")
        #expect(inArgv.stderr.split(separator: "\n").count == 1)
        #expect(try world.bytes() == before)

        world.folder.write("rpc.url", world.simulator.evmURL + "\n")
        chmod(world.folder.file("rpc.url"), 0o600)
        let added = try await cli.run("source", "add", "eth", "--kind", "evm", "--chain-id", "1", "--native", "ETH", "--url-file", "rpc.url",
                                      "--address", Self.savings.lowercased(), "--token", "\(Self.usdc)=USDC", "--history", "none",
                                      "--confirmations", "12", "--no-ingest")
        #expect(added.status == 0, "\(added.stderr)")
        #expect(added.stdout.contains("added source 'eth' (evm)") && added.stdout.contains("checked: the node answers for ethereum (1)")
                && added.stdout.contains("no first pass (--no-ingest)"), "\(added.stdout)")
        let text = try world.text()
        #expect(text.hasSuffix("""
            name = "eth"
            kind = "evm"
            url_file = "rpc.url"
            chain_id = 1
            native = "ETH"
            addresses = ["\(Self.savings.lowercased())"]
            tokens = [{ contract = "\(Self.usdc)", currency = "USDC" }]
            history = "none"
            confirmations = 12

            """), "flags in the order of the config keys, the file relative to the config: \(text)")
        #expect(!(added.stdout + added.stderr).contains(world.simulator.evmURL) && !text.contains(world.simulator.evmURL))
        let json = try await cli.run("source", "add", "eth2", "--kind", "evm", "--chain", "ethereum", "--url-file", "rpc.url",
                                     "--address", Self.savings, "--history", "none", "--no-ingest", "--json")
        #expect(json.status == 0 && (json.object?["added"] as? [[String: Any]])?.first?["url"] is NSNull, "a URL from a file is not printed: \(json.stdout)")
        let listed = try await cli.run("source", "list", "--json").objects ?? []
        #expect(listed.first?["state"] as? String == "never" && listed.first?["assets"] as? [String] == ["eth ETH", "eth USDC"],
                "before its first pass, the coin and the token the config names: \(listed)")
        let ingest = try await cli.run("ingest", "--source", "eth", "--json")
        #expect(ingest.status == 0, "the block written reads and ingests: \(ingest.stdout)\(ingest.stderr)")
    }

    @Test("evm: a node of another chain than --chain is refused by the probe: one line, nothing written")
    func evmWrongChain() async throws {
        let world = try await World()
        let before = try world.bytes()
        let refused = try await world.cli().run("source", "add", "base", "--kind", "evm", "--chain", "base", "--url", world.simulator.evmURL,
                                                "--address", Self.savings, "--history", "none")
        #expect(refused.status == 1, "\(refused.stderr)")
        #expect(refused.stderr.hasPrefix("error: source 'base' does not answer as it should, so nothing was written")
                && refused.stderr.contains("8453") && refused.stderr.split(separator: "\n").count == 1, "\(refused.stderr)")
        #expect(try world.bytes() == before)
        #expect(try await world.cli().run("source", "list", "--json").objects?.isEmpty == true)
    }

    @Test("fulmine and arkd: each in one command with its first pass; a Fulmine url off loopback is warned about")
    func arkadeInOneCommand() async throws {
        let world = try await World()
        let cli = world.cli()
        let before = try world.bytes()
        let wallet = try await cli.run("source", "add", "arkade", "--kind", "fulmine", "--url", world.simulator.fulmineURL("arkade"),
                                       "--asset", "Arkade wallet", "--json")
        #expect(wallet.status == 0, "\(wallet.stderr)")
        #expect(SourceCLITests.ingestEntry(wallet, "arkade")?["new"] as? Int == 2, "the wallet's two receipts: \(wallet.stdout)")
        #expect(!wallet.stderr.contains("loopback"), "127.0.0.1 draws no warning: \(wallet.stderr)")
        let afterWallet = try world.bytes()
        #expect(Array(afterWallet.prefix(before.count)) == before)
        #expect(try world.text().hasSuffix("name = \"arkade\"\nkind = \"fulmine\"\nurl = \"\(world.simulator.fulmineURL("arkade"))\"\nasset = \"Arkade wallet\"\n"))

        let watch = try await cli.run("source", "add", "ark-watch", "--kind", "arkd", "--url", world.simulator.arkdURL, "--address", world.watched,
                                      "--asset", "Ark savings")
        #expect(watch.status == 0, "\(watch.stderr)")
        #expect(watch.stdout.contains("added source 'ark-watch' (arkd)") && watch.stdout.contains("answers like an Ark server's indexer")
                && watch.stdout.contains("first pass of 'ark-watch': 2 new transaction(s)") && watch.stdout.contains("assets: 'Ark savings'"),
                "\(watch.stdout)")
        #expect(Array(try world.bytes().prefix(afterWallet.count)) == afterWallet)
        #expect(try world.text().hasSuffix("kind = \"arkd\"\nurl = \"\(world.simulator.arkdURL)\"\nasset = \"Ark savings\"\naddresses = [\"\(world.watched)\"]\n"))

        // 0.0.0.0 reaches this machine's loopback on Linux, but is not a loopback address: the
        // doctor's warning is shown (stderr, and in what was checked).
        let offLoopback = world.simulator.fulmineURL("arkade").replacingOccurrences(of: "127.0.0.1", with: "0.0.0.0")
        let exposed = try await cli.run("source", "add", "exposed", "--kind", "fulmine", "--url", offLoopback, "--no-ingest")
        #expect(exposed.status == 0, "\(exposed.stderr)")
        #expect(exposed.stderr.contains("warning: source 'exposed': Fulmine's API has no authentication and 0.0.0.0 is not on loopback"), "\(exposed.stderr)")
        #expect(exposed.stdout.contains("checked: ") && exposed.stdout.contains("not on loopback"), "\(exposed.stdout)")

        let list = try await cli.run("source", "list", "--json").objects ?? []
        #expect(list.map { "\($0["name"] as? String ?? "")/\($0["kind"] as? String ?? "")/\(($0["assets"] as? [String] ?? []).joined(separator: "+"))/\($0["state"] as? String ?? "")" }
                == ["arkade/fulmine/Arkade wallet/ok", "ark-watch/arkd/Ark savings/ok", "exposed/fulmine/exposed/never"], "\(list)")
    }
}
