import Foundation
import Testing
import TestSupport

/// An `evm` source through the built binary, on a real py-evm chain (SPEC.md section 26): the
/// config as CLI.md writes it, and amounts beyond 64 bits that come back exactly through
/// `ingest`, `tx list --json`, `balance --json` and `export csv`.
@Suite("CLI: an evm source on a real chain", .serialized)
struct EVMCLITests {
    let folder = TemporaryDirectory("walletwatch-evm-cli")
    var cli: CLIRunner { CLIRunner(folder: folder) }

    func field(_ key: String, _ value: String) -> String { "\"\(key)\": \(value)" }

    @Test("12.345678901234567891 ETH and 10^24 token units come back exactly through every command")
    func exactAmounts() async throws {
        let node = try await EVMNode.start(chainID: 1, finalityDepth: 0, blockTime: 12, genesisTimestamp: 1_767_225_600)
        defer { Task { await node.stop() } }
        let holder = try await node.control("newAccount", ["seed": "exact"])["address"] as! String
        _ = try await node.control("fund", ["to": holder, "value": "12345678901234567891"])
        let dai = try await node.control("deployToken", ["name": "Dai", "symbol": "DAI", "decimals": 18])["address"] as! String
        _ = try await node.control("mintToken", ["token": dai, "to": holder, "amount": "1000000000000000000000000"])
        folder.write("walletwatch.toml", """
            [[sources]]
            name = "eth"
            kind = "evm"
            chain = "ethereum"
            url = "\(node.url)"
            addresses = ["\(holder)"]
            tokens = [{ contract = "\(dai)", currency = "DAI" }]
            history = "otterscan"
            asset = "Ledger ETH"
            token_assets = { DAI = "Stable savings" }
            """)
        let ingest = try await cli.run("ingest", "--json")
        #expect(ingest.status == 0, "\(ingest.stdout)\(ingest.stderr)")
        #expect(ingest.stdout.contains(field("history_requests", "")), "\(ingest.stdout)")
        // Nothing changed: even a new process (whose session checks the chain id and the
        // token's decimals in the same batch as the tip) costs one HTTP request.
        _ = try await node.control("requestStats", ["reset": true])
        let again = try await cli.run("ingest", "--json")
        // "requests" counts JSON-RPC calls (CLI.md): eth_chainId, the token's decimals() and
        // eth_blockNumber, the three in the one batch the node counts below.
        #expect(again.stdout.contains(field("history_requests", "0")) && again.stdout.contains(field("requests", "3")), "\(again.stdout)")
        let stats = try await node.control("requestStats")
        #expect(stats["httpRequests"] as? Int == 1, "\(stats)")
        let listed = try await cli.run("tx", "list", "--json")
        #expect(listed.stdout.contains(field("amount", "12345678901234567891")), "\(listed.stdout)")
        #expect(listed.stdout.contains(field("amount", "1000000000000000000000000")), "\(listed.stdout)")
        let balance = try await cli.run("balance", "--json")
        #expect(balance.status == 0, "\(balance.stderr)")
        #expect(balance.stdout.contains("12345678901234567891") && balance.stdout.contains("1000000000000000000000000"), "\(balance.stdout)")
        #expect(balance.stdout.contains("\"Ledger ETH\"") && balance.stdout.contains("\"Stable savings\""))
        let csv = try await cli.run("export", "csv")
        // Major units with every decimal of the currency, as fields of their own.
        #expect(csv.stdout.contains(",12.345678901234567891,"), "\(csv.stdout)")
        #expect(csv.stdout.contains(",1000000.000000000000000000,"), "\(csv.stdout)")

        // A history that leaves a payment out: ingest says so in its JSON, with the amount.
        let hidden = try await node.control("fund", ["to": holder, "value": "4242"])
        _ = try await node.control("setFaults", ["omitTransactions": [(hidden["hash"] as? String ?? "")]])
        let incomplete = try await cli.run("ingest", "--json")
        _ = try await node.control("clearFaults")
        #expect(incomplete.stdout.contains("\"warning\": \"history incomplete: ETH") && incomplete.stdout.contains("(4242 unexplained"),
                "\(incomplete.stdout)")
    }

    @Test("run follows the tip: a payment mined after the daemon started reaches the views, confirmed once final")
    func daemonFollowsTheTip() async throws {
        let node = try await EVMNode.start(chainID: 42161, finalityDepth: 1, blockTime: 2, genesisTimestamp: 1_767_225_600)
        defer { Task { await node.stop() } }
        let holder = try await node.control("newAccount", ["seed": "daemon"])["address"] as! String
        folder.write("walletwatch.toml", """
            [[sources]]
            name = "arb"
            kind = "evm"
            chain = "arbitrum"
            url = "\(node.url)"
            addresses = ["\(holder)"]
            history = "otterscan"

            [rates]
            provider = "static"
            [rates.static]
            "ETH/USD" = "3000"
            """)
        let daemon = try BackgroundProcess(cli.binary, ["run"], environment: cli.environment, currentDirectory: folder.path)
        #expect(await eventually(within: .seconds(30)) { daemon.stderr.contains("ingested") }, "the first pass: \(daemon.stderr)")
        let payment = try await node.control("fund", ["to": holder, "value": "31415926535"])
        let txid = "evm:42161:\((payment["hash"] as? String ?? "").lowercased())"
        // Arbitrum's interval is 2 s; the deadline only keeps a broken daemon from hanging the test.
        #expect(try await eventually(within: .seconds(30)) { try await cli.run("tx", "show", txid).status == 0 }, "\(daemon.stderr)")
        _ = try await node.control("mine", ["blocks": 2])
        #expect(try await eventually(within: .seconds(30)) {
            try await cli.run("tx", "show", txid, "--json").stdout.contains("\"confirmed\"")
        }, "\(daemon.stderr)")
        daemon.send(SIGTERM)
        #expect(await daemon.exitStatus(within: .seconds(30)) == 0, "\(daemon.stderr)")
    }

    @Test("a provider URL from url_env is never printed: not in JSON, errors, trace logs, the daemon's, or any command line")
    func secretURLEverywhere() async throws {
        let node = try await EVMNode.start(chainID: 1, finalityDepth: 0, blockTime: 12, genesisTimestamp: 1_767_225_600)
        defer { Task { await node.stop() } }
        let holder = try await node.control("newAccount", ["seed": "secret-cli"])["address"] as! String
        _ = try await node.control("fund", ["to": holder, "value": "1000"])
        let key = "k3y\(UUID().uuidString.replacingOccurrences(of: "-", with: ""))"
        folder.write("walletwatch.toml", """
            [[sources]]
            name = "eth"
            kind = "evm"
            chain = "ethereum"
            url_env = "WALLETWATCH_TEST_RPC_URL"
            addresses = ["\(holder)"]
            history = "none"
            [http]
            retries = 1
            """)
        // One retry, not the default three: the unreachable node's commands still log a retry
        // (where the URL could leak) without sleeping through three backoffs each.
        // A provider's URL holds its key in the path (Infura's /v3/KEY, Alchemy's /v2/KEY), where
        // query redaction does not reach; the node answers JSON-RPC on any path.
        var environment = ["WALLETWATCH_TEST_RPC_URL": "\(node.url)/v3/\(key)", "WALLETWATCH_LOG_LEVEL": "trace"]
        var printed: [String] = []
        func run(_ arguments: String...) async throws -> CommandResult {
            let result = try await cli.run(arguments, extraEnvironment: environment)
            printed.append(result.stdout + result.stderr)
            return result
        }
        let ingest = try await run("ingest", "--json")
        #expect(ingest.status == 0, "\(ingest.stdout)\(ingest.stderr)")
        // The trace log names each request's URL: the stand-in, never the URL.
        #expect(ingest.stderr.contains("<the JSON-RPC URL of source 'eth'>"), "\(ingest.stderr)")
        #expect(try await run("balance", "--refresh", "--json").status == 0)
        #expect(try await run("doctor", "--json").stdout.contains("\"source eth\""))

        // The provider refuses: its message is shown, the URL is not.
        _ = try await node.control("setFaults", ["rpcError": ["eth_getBalance": "over quota"]])
        _ = try await node.control("fund", ["to": holder, "value": "1"])
        let refused = try await run("ingest", "--json")
        #expect(refused.status != 0 && (refused.stdout + refused.stderr).contains("over quota"), "\(refused.stdout)\(refused.stderr)")
        _ = try await run("doctor", "--json")
        _ = try await node.control("clearFaults")

        // The daemon: its logs, and no process's command line on this machine, hold the key.
        let daemon = try BackgroundProcess(cli.binary, ["run"], environment: cli.environment.merging(environment) { $1 }, currentDirectory: folder.path)
        #expect(await eventually(within: .seconds(30)) { daemon.stderr.contains("ingested") }, "\(daemon.stderr)")
        var commandLines: [String] = []
        for entry in (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? [] where entry.allSatisfy(\.isNumber) {
            if let bytes = FileManager.default.contents(atPath: "/proc/\(entry)/cmdline") { commandLines.append(String(decoding: bytes, as: UTF8.self)) }
        }
        daemon.send(SIGTERM)
        #expect(await daemon.exitStatus(within: .seconds(30)) == 0, "\(daemon.stderr)")
        #expect(commandLines.contains { $0.contains("walletwatch") && $0.contains("run") }, "the daemon's command line was read")
        #expect(!commandLines.contains { $0.contains(key) })
        printed.append(daemon.stdout + daemon.stderr)

        // A node that cannot be reached: the connection error names the stand-in.
        environment["WALLETWATCH_TEST_RPC_URL"] = "http://127.0.0.1:\(unusedLoopbackPort())/v3/\(key)"
        let unreachable = try await run("ingest", "--json")
        #expect(unreachable.status != 0, "\(unreachable.stdout)")
        #expect(try await run("balance", "--refresh", "--json").status == 0, "stored figures, marked stale")
        _ = try await run("doctor", "--json")
        for output in printed {
            #expect(!output.contains(key), "\(output)")
        }
    }

    @Test("a mixed-case address with a wrong checksum is refused (exit 65), naming the address")
    func badChecksum() async throws {
        folder.write("walletwatch.toml", """
            [[sources]]
            name = "eth"
            kind = "evm"
            chain = "ethereum"
            url = "http://127.0.0.1:8545"
            addresses = ["0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeD"]
            history = "none"
            """)
        let result = try await cli.run("balance")
        #expect(result.status == 65, "\(result.stdout)\(result.stderr)")
        #expect(result.stderr.contains("0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeD") && result.stderr.contains("EIP-55"), "\(result.stderr)")
    }

    @Test("a config error names the file, the key and what is accepted")
    func configErrors() async throws {
        let cases: [(String, String)] = [
            ("chain = \"solana\"", "sources[1].chain 'solana' is not accepted; use \"ethereum\""),
            ("chain = \"ethereum\"\ntokens = [\"USDT\", \"FOO\"]", "'FOO' is not a built-in token on ethereum (1)"),
            ("chain = \"bsc\"\ntokens = [\"USDC\"]", "it has none"),
            ("chain = \"ethereum\"\nhistory = \"graph\"", "'graph' is not accepted; use \"etherscan\""),
            ("chain = \"ethereum\"\nconfirmations = \"safe\"", "use \"finalized\" (the default) or a block count"),
            ("chain_id = 100", "sources[1].native is missing"),
        ]
        for (keys, expected) in cases {
            folder.write("walletwatch.toml", """
                [[sources]]
                name = "eth"
                kind = "evm"
                url = "http://127.0.0.1:8545"
                addresses = ["0x52908400098527886E0F7030069857D2E4169EE7"]
                \(keys)
                """)
            let result = try await cli.run("balance")
            #expect(result.status != 0)
            #expect(result.stderr.contains("walletwatch.toml") && result.stderr.contains(expected), "\(keys): \(result.stderr)")
        }
    }
}
