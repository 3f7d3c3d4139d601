import Foundation
import Testing
import TestSupport
import WalletWatchBitcoin
import WalletWatchCore
import WalletWatchSim

/// `walletwatch source add|list|remove` (SPEC.md section 28) as a newcomer uses them: the built
/// binary against the simulator's barkd wallet, Esplora explorer and Electrum server (TLS with
/// a self-signed certificate), on a terminal (a pseudo-terminal) and without one.
@Suite("CLI: a source in one command", .serialized)
struct SourceCLITests {
    /// The fixed addresses an esplora source watches (bech32 test vectors of BIP173 on mainnet).
    static let paidAddresses = ["bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq", "bc1q9vza2e8x573nczrlzms0wvx3gsqjx7vavgkx0l"]
    /// BIP86's account key: a bare xpub (no SLIP-132 script), with history as wpkh and as tr.
    static let bareXpub = VectorKeys.bip86Xpub

    /// The simulator with every kind of source on main, and a folder for the config.
    final class World: @unchecked Sendable {
        let simulator: Simulator
        let folder = TemporaryDirectory("walletwatch-source")

        init() async throws {
            simulator = try await Simulator.start(scenario: Scenario(
                tipHeight: 150,
                wallets: [WalletScenario(name: "ark", token: "ark-secret-token", generatedMovements: GeneratedMovements(count: 12, seed: 4))],
                esplora: EsploraScenario(
                    hdWallets: [
                        // One account as a descriptor (BIP84's test account).
                        HDWalletScenario(name: "w", xpub: VectorKeys.bip84Zpub, receive: [0, 1, 2, 5], change: [0, 1], seed: 5),
                        // The same account on the test networks, for the Electrum server: it
                        // serves the simulator's regtest chain, and a source of another network
                        // than its server's is refused.
                        HDWalletScenario(name: "node", descriptors: RegtestWallet.descriptors, network: "regtest", receive: [0, 1, 2, 5], change: [0, 1], seed: 5),
                        // The same bare xpub used as two script types, as wallets that let a user
                        // switch types do: three transactions as wpkh, one as tr, none as the others.
                        HDWalletScenario(name: "bare-wpkh", descriptors: ["wpkh(\(SourceCLITests.bareXpub)/<0;1>/*)"], receive: [0, 3], change: [0], seed: 8),
                        HDWalletScenario(name: "bare-tr", descriptors: ["tr(\(SourceCLITests.bareXpub)/<0;1>/*)"], receive: [1], seed: 9),
                    ],
                    payments: [PaymentScenario(address: SourceCLITests.paidAddresses[0], value: 50_000, blockHeight: 140),
                               PaymentScenario(address: SourceCLITests.paidAddresses[1], value: 7_000, blockHeight: 141),
                               PaymentScenario(address: SourceCLITests.paidAddresses[1], value: 3_000)]),
                bitcoin: BitcoinScenario()))
            folder.write("ark.token", "ark-secret-token\n")
            chmod(folder.file("ark.token"), 0o600)
        }

        var config: String { folder.file("walletwatch.toml") }

        /// A config of the user's: no sources yet, static rates, short timeouts.
        func writeConfig() {
            folder.write("walletwatch.toml", SourceCLITests.userConfig())
        }

        func bytes() throws -> [UInt8] { Array(try Data(contentsOf: URL(fileURLWithPath: config))) }

        func cli() -> CLIRunner { CLIRunner(folder: folder) }

        deinit {
            let simulator = self.simulator
            Task { await simulator.stop() }
        }
    }

    /// A config as a user writes one, comments and all (`source add` must keep every byte of
    /// it): no sources yet, static rates (`rates` lines besides BTC/USD), short timeouts.
    static func userConfig(rates: [String] = []) -> String {
        """
        # my walletwatch config
        database = "walletwatch.sqlite"

        [rates]
        provider = "static"   # no price API in tests
        currencies = ["USD"]
        [rates.static]
        "BTC/USD" = "60000"
        \(rates.map { $0 + "\n" }.joined())
        [http]
        timeout_seconds = 10
        # the end
        """
    }

    /// What OpenSSL reads as the fingerprint of the simulator's certificate: `AB:CD:...`.
    static func opensslFingerprint(_ path: String) async throws -> String {
        let result = try await ProcessRunner.run("/usr/bin/openssl", ["x509", "-noout", "-fingerprint", "-sha256", "-in", path], environment: [:],
                                                 currentDirectory: "/")
        return String(result.stdout.split(separator: "=").last ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The BIP84 account on regtest, the chain the simulator's Electrum server serves: its
    /// receive and change descriptors.
    static let regtestWallet = ["--network", "regtest", "--descriptor", RegtestWallet.descriptors[0], "--descriptor", RegtestWallet.descriptors[1]]

    static func ingestEntry(_ result: CommandResult, _ name: String) -> [String: Any]? {
        ((result.object?["ingest"] as? [String: Any])?["sources"] as? [[String: Any]])?.first { $0["name"] as? String == name }
    }

    @Test("barkd after init: the starter config comes back byte for byte above the new block, the first pass runs; list; remove gives the starter back")
    func barkdFromInit() async throws {
        let world = try await World()
        let cli = world.cli()
        #expect(try await cli.run("init").status == 0)
        let starter = try world.bytes()
        let added = try await cli.run("source", "add", "ark", "--kind", "barkd", "--url", world.simulator.barkdURL("ark"), "--token-file", "ark.token",
                                      "--asset", "Ark wallet", "--json")
        #expect(added.status == 0, "\(added.stderr)")
        let after = try world.bytes()
        #expect(Array(after.prefix(starter.count)) == starter, "every byte of the starter config, comments included, is kept")
        let block = String(decoding: after.dropFirst(starter.count), as: UTF8.self)
        #expect(block.hasPrefix("\n[[sources]]\n# added by `walletwatch source add` on 2026-11-21\nname = \"ark\"\nkind = \"barkd\"\n"), "\(block)")
        #expect(block.contains("token_file = \"ark.token\"\n") && block.contains("ark_asset = \"Ark wallet\"\n"),
                "--asset is barkd's ark_asset; the token file relative to the config: \(block)")
        #expect(!block.contains("ark-secret-token") && !added.stdout.contains("ark-secret-token") && !added.stderr.contains("ark-secret-token"))
        let entry = try #require(Self.ingestEntry(added, "ark"))
        #expect(entry["ok"] as? Bool == true && entry["new"] as? Int == 12, "\(entry)")
        let source = try #require((added.object?["added"] as? [[String: Any]])?.first)
        #expect(source["assets"] as? [String] == ["Ark wallet"] && source["kind"] as? String == "barkd")
        #expect((added.object?["checks"] as? [[String: Any]])?.first?["detail"] as? String != nil)
        var mode = stat()
        stat(world.config, &mode)
        #expect(mode.st_mode & 0o777 == 0o600, "init's mode is kept")

        let list = try await cli.run("source", "list", "--json")
        let row = try #require(list.objects?.first)
        #expect(row["name"] as? String == "ark" && row["kind"] as? String == "barkd" && row["assets"] as? [String] == ["Ark wallet"]
                && row["state"] as? String == "ok" && row["last_pass"] as? String == "2026-11-21T12:00:00.000Z" && row["error"] is NSNull, "\(row)")

        let removed = try await cli.run("source", "remove", "ark")
        #expect(removed.status == 0, "\(removed.stderr)")
        #expect(removed.stdout.contains("'Ark wallet' and their 12 transaction(s) stay in the database"), "\(removed.stdout)")
        #expect(try world.bytes() == starter, "the block and the blank line before it leave; nothing else changes")
        #expect(try await sqlite(world.folder.file("walletwatch.sqlite"), "SELECT COUNT(*) FROM transactions") == "12", "the history stays")
        let listed = try await cli.run("source", "list", "--json").objects ?? []
        #expect(listed.count == 1 && listed[0]["state"] as? String == "removed" && listed[0]["assets"] as? [String] == ["Ark wallet"], "\(listed)")
    }

    @Test("esplora: a list of addresses, then an HD wallet by its descriptor, each checked, appended and ingested")
    func esplora() async throws {
        let world = try await World()
        world.writeConfig()
        let cli = world.cli()
        let before = try world.bytes()
        let cold = try await cli.run("source", "add", "cold", "--kind", "esplora", "--url", world.simulator.esploraURL,
                                     "--address", Self.paidAddresses[0], "--address", Self.paidAddresses[1], "--json")
        #expect(cold.status == 0, "\(cold.stderr)")
        #expect(Self.ingestEntry(cold, "cold")?["new"] as? Int == 3, "two confirmed payments and one in the mempool")
        let afterCold = try world.bytes()
        #expect(Array(afterCold.prefix(before.count)) == before)
        #expect(String(decoding: afterCold, as: UTF8.self).hasSuffix("addresses = [\"\(Self.paidAddresses[0])\", \"\(Self.paidAddresses[1])\"]\n"))

        let hd = try await cli.run("source", "add", "hodl", "--kind", "esplora", "--url", world.simulator.esploraURL,
                                   "--descriptor", VectorKeys.sparrowDescriptor, "--asset", "Hardware wallet", "--gap-limit", "10")
        #expect(hd.status == 0, "\(hd.stderr)")
        #expect(hd.stdout.contains("added source 'hodl' (esplora)") && hd.stdout.contains("first pass of 'hodl': 6 new transaction(s)")
                && hd.stdout.contains("assets: 'Hardware wallet'"), "\(hd.stdout)")
        let text = String(decoding: try world.bytes(), as: UTF8.self)
        #expect(Array(try world.bytes().prefix(afterCold.count)) == afterCold, "the first block stays as it was")
        #expect(text.hasSuffix("descriptors = [\"\(VectorKeys.sparrowDescriptor)\"]\ngap_limit = 10\n"), "the descriptor as given: \(text)")
        let list = try await cli.run("source", "list", "--json").objects ?? []
        #expect(list.map { $0["name"] as? String } == ["cold", "hodl"] && list.allSatisfy { $0["state"] as? String == "ok" })
    }

    @Test("electrum with a self-signed certificate: without a terminal refused, printing --pin with its SHA-256; with --pin added and ingested")
    func electrumPin() async throws {
        let world = try await World()
        world.writeConfig()
        let cli = world.cli()
        let before = try world.bytes()
        let fingerprint = try await Self.opensslFingerprint(world.simulator.certificatePath)
        let hex = fingerprint.replacingOccurrences(of: ":", with: "").lowercased()
        #expect(hex.count == 64)
        let refused = try await cli.run(["source", "add", "node", "--kind", "electrum", "--url", world.simulator.electrumTLSURL] + Self.regtestWallet)
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("SHA-256 \(fingerprint)") && refused.stderr.contains("run the command again with --pin \(hex)"), "\(refused.stderr)")
        #expect(!refused.stderr.contains("[y/N]"), "nothing is asked without a terminal")
        #expect(try world.bytes() == before, "nothing written")

        let pinned = try await cli.run(["source", "add", "node", "--kind", "electrum", "--url", world.simulator.electrumTLSURL] + Self.regtestWallet
                                       + ["--pin", fingerprint, "--json"])
        #expect(pinned.status == 0, "\(pinned.stderr)")
        #expect(Self.ingestEntry(pinned, "node")?["new"] as? Int == 6)
        #expect(pinned.object?["certificate_sha256"] is NSNull, "given by flag, not trusted on first use")
        let detail = (pinned.object?["checks"] as? [[String: Any]])?.first?["detail"] as? String ?? ""
        #expect(detail.contains("answers as walletwatch-sim") && detail.contains("the pinned one"), "\(detail)")
        #expect(String(decoding: try world.bytes(), as: UTF8.self).hasSuffix("descriptors = [\"\(RegtestWallet.descriptors[0])\", \"\(RegtestWallet.descriptors[1])\"]\ncertificate_sha256 = \"\(fingerprint)\"\n"))
    }

    @Test("electrum on a terminal: the certificate's SHA-256 is shown and asked about; no writes nothing, yes pins it (trust on first use)")
    func electrumTrustOnFirstUse() async throws {
        let world = try await World()
        world.writeConfig()
        let cli = world.cli()
        let before = try world.bytes()
        let fingerprint = try await Self.opensslFingerprint(world.simulator.certificatePath)
        let arguments = ["source", "add", "node", "--kind", "electrum", "--url", world.simulator.electrumTLSURL] + Self.regtestWallet

        let declined = try TerminalProcess(cli.binary, arguments, environment: cli.environment, currentDirectory: cli.folder)
        #expect(await eventually(within: .seconds(60)) { declined.output.contains("[y/N]") }, "\(declined.output)")
        #expect(declined.output.contains("SHA-256 fingerprint: \(fingerprint)"), "\(declined.output)")
        declined.type("n\n")
        #expect(await declined.exitStatus(within: .seconds(60)) == 1)
        #expect(declined.output.contains("it was not trusted; nothing was written"), "\(declined.output)")
        #expect(try world.bytes() == before)

        let accepted = try TerminalProcess(cli.binary, arguments, environment: cli.environment, currentDirectory: cli.folder)
        #expect(await eventually(within: .seconds(60)) { accepted.output.contains("[y/N]") }, "\(accepted.output)")
        #expect(!accepted.output.contains("added source"), "asked before anything is written")
        #expect(try world.bytes() == before)
        accepted.type("y\n")
        #expect(await accepted.exitStatus(within: .seconds(120)) == 0, "\(accepted.output)")
        let hex = fingerprint.replacingOccurrences(of: ":", with: "").lowercased()
        #expect(accepted.output.contains("pinned the server's certificate") && accepted.output.contains("first pass of 'node': 6 new transaction(s)"),
                "\(accepted.output)")
        let text = String(decoding: try world.bytes(), as: UTF8.self)
        #expect(text.hasSuffix("certificate_sha256 = \"\(hex)\"\n"), "\(text)")
        #expect(try await cli.run("ingest").status == 0, "the pin written is the server's")
    }

    @Test("a bare xpub with history as wpkh and as tr: both kept, one source each, named and ingested; the others said to have none")
    func bareXpubTwoScriptTypes() async throws {
        let world = try await World()
        world.writeConfig()
        let cli = world.cli()
        let added = try await cli.run("source", "add", "vault", "--kind", "esplora", "--url", world.simulator.esploraURL, "--xpub", Self.bareXpub,
                                      "--asset", "Vault", "--json")
        #expect(added.status == 0, "\(added.stderr)")
        let scan = try #require(added.object?["script_types"] as? [String: Any])
        #expect(scan["kept"] as? [String] == ["wpkh", "tr"], "\(scan)")
        let tried = (scan["tried"] as? [[String: Any]] ?? []).map { "\($0["type"] as? String ?? "?")=\($0["history"] as? Bool ?? false)" }
        #expect(tried == ["wpkh=true", "sh(wpkh)=false", "pkh=false", "tr=true"], "\(scan)")
        let names = (added.object?["added"] as? [[String: Any]])?.map { $0["name"] as? String }
        #expect(names == ["vault-wpkh", "vault-tr"])
        // What the explorer's own address routes say each wallet holds: three transactions as
        // wpkh (two deposits, one spend), one as tr.
        let wpkh = try await HDWorld.truth(of: world.simulator, wallet: "bare-wpkh", receive: [0, 3], change: [0])
        let tr = try await HDWorld.truth(of: world.simulator, wallet: "bare-tr", receive: [1], change: [])
        #expect(Self.ingestEntry(added, "vault-wpkh")?["new"] as? Int == wpkh.amounts.count)
        #expect(Self.ingestEntry(added, "vault-tr")?["new"] as? Int == tr.amounts.count)
        #expect(wpkh.amounts.count == 3 && tr.amounts.count == 1)
        let assets = try await cli.run("asset", "list", "--json").objects ?? []
        #expect(Set(assets.compactMap { $0["name"] as? String }) == ["Vault (wpkh)", "Vault (tr)"], "\(assets)")
        let text = String(decoding: try world.bytes(), as: UTF8.self)
        #expect(text.contains("name = \"vault-wpkh\"") && text.contains("descriptors = [\"wpkh(\(Self.bareXpub)/<0;1>/*)#")
                && text.contains("descriptors = [\"tr(\(Self.bareXpub)/<0;1>/*)#") && !text.contains("xpub = "), "\(text)")

        // The same in words, without --json.
        let again = try await cli.run("source", "add", "vault2", "--kind", "esplora", "--url", world.simulator.esploraURL, "--xpub", Self.bareXpub,
                                      "--no-ingest")
        #expect(again.status == 0, "\(again.stderr)")
        #expect(again.stdout.contains("the xpub has history as wpkh and tr (none as sh(wpkh), pkh in the first 20 receive and 20 change addresses): one source each, 'vault2-wpkh', 'vault2-tr'"),
                "\(again.stdout)")
    }

    @Test("a config is never half-written: killed between writing the new text and renaming it over the config, the config is the old one")
    func killedMidWrite() async throws {
        let world = try await World()
        world.writeConfig()
        chmod(world.config, 0o640)
        let cli = world.cli()
        let before = try world.bytes()
        let marker = world.folder.file("held")
        let arguments = ["source", "add", "cold", "--kind", "esplora", "--url", world.simulator.esploraURL, "--address", Self.paidAddresses[0], "--no-ingest"]
        let held = try BackgroundProcess(cli.binary, arguments, environment: cli.environment.merging(["WALLETWATCH_TEST_HOLD_BEFORE_RENAME": marker]) { $1 },
                                         currentDirectory: cli.folder)
        #expect(await eventually(within: .seconds(60)) { FileManager.default.fileExists(atPath: marker) }, "\(held.stderr)")
        // The new text is whole and synced in the temporary file, beside the config.
        let temporary = try String(contentsOfFile: marker, encoding: .utf8)
        #expect((temporary as NSString).deletingLastPathComponent == world.folder.path)
        let written = Array(try Data(contentsOf: URL(fileURLWithPath: temporary)))
        #expect(Array(written.prefix(before.count)) == before && String(decoding: written, as: UTF8.self).contains("name = \"cold\""))
        var mode = stat()
        stat(temporary, &mode)
        #expect(mode.st_mode & 0o777 == 0o640, "the config's mode, before the rename")
        held.send(SIGKILL)
        #expect(await held.exitStatus(within: .seconds(30)) != 0)
        #expect(try world.bytes() == before, "the old config, whole")
        #expect(try await cli.run("source", "list", "--json").objects?.isEmpty == true)

        let done = try await cli.run(arguments)
        #expect(done.status == 0, "\(done.stderr)")
        let after = try world.bytes()
        #expect(Array(after.prefix(before.count)) == before && String(decoding: after, as: UTF8.self).contains("name = \"cold\""))
        stat(world.config, &mode)
        #expect(mode.st_mode & 0o777 == 0o640, "the mode is kept")
        #expect(try await cli.run("source", "list", "--json").objects?.map { $0["state"] as? String } == ["never"], "--no-ingest")
    }

    @Test("refused before anything is asked or written, one line naming the flag: private keys, checksums, networks, kinds, keys of another kind",
          arguments: [
              (["--kind", "esplora", "--xpub", "xprv9s21ZrQH143K3QTDL4LXw2F7HEK3wJUD2nW2nRk4stbPy6cq3jPPqjiChkVvvNKmPGJxWUtg6LnF5kejMRNNU3TGtRBeJgk33yuGBxrMPHi"],
               "private key", 65),
              (["--kind", "esplora", "--descriptor", "wpkh(\(VectorKeys.bip84Zpub)/<0;1>/*)#aaaaaaaa"], "--descriptor", 65),
              (["--kind", "esplora", "--address", "bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdx"], "--address of source 'x'", 65),
              (["--kind", "esplora", "--network", "testnet", "--address", "bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq"], "--address of source 'x'", 65),
              (["--kind", "lnd"], "--kind 'lnd' is not accepted", 65),
              // EIP-55's example with its last letter's case changed: the checksum fails.
              (["--kind", "evm", "--chain", "ethereum", "--address", "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeD"],
               "--address: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeD' fails its EIP-55 checksum", 65),
              (["--kind", "evm", "--chain", "ethereum", "--address", SourceKindsCLITests.savings, "--token", "SHIB"],
               "--token 'SHIB' is not a built-in token on ethereum (1)", 65),
              (["--kind", "arkd", "--address", ArkAddress.encode(network: .testnet, signerKey: SourceKindsCLITests.arkKey, vtxoTaprootKey: SourceKindsCLITests.arkKey)],
               "--address of source 'x': 'tark1", 65),
              (["--kind", "fulmine", "--address", "bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq"], "--address does not apply to a source of kind fulmine", 65),
              (["--kind", "esplora", "--address", "bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq", "--chain", "ethereum"],
               "--chain does not apply to a source of kind esplora", 65),
              (["--kind", "barkd", "--network", "testnet"], "--network does not apply to a source of kind barkd", 65),
              (["--kind", "esplora", "--address", "bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq", "--pin", "ab"], "does not apply", 65),
          ] as [([String], String, Int32)])
    func refused(_ flags: [String], _ message: String, _ status: Int32) async throws {
        let world = try await World()
        world.writeConfig()
        let before = try world.bytes()
        await world.simulator.resetRequests()
        let url = flags.contains("barkd") ? world.simulator.barkdURL("ark") : world.simulator.esploraURL
        let result = try await world.cli().run(["source", "add", "x", "--url", url] + flags)
        #expect(result.status == status, "\(result.stderr)")
        #expect(result.stderr.hasPrefix("error: ") && result.stderr.contains(message) && result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
        #expect(result.stderr.contains("nothing was written"), "\(result.stderr)")
        #expect(!result.stderr.contains("xprv9s21"), "a private key is never repeated")
        #expect(try world.bytes() == before)
        #expect(await world.simulator.requests(matching: "/").isEmpty, "the server was not asked")
    }

    @Test("a name in use, a credential in the URL, an unknown source to remove: refused, nothing written")
    func otherRefusals() async throws {
        let world = try await World()
        world.writeConfig()
        let cli = world.cli()
        #expect(try await cli.run("source", "add", "cold", "--kind", "esplora", "--url", world.simulator.esploraURL,
                                  "--address", Self.paidAddresses[0], "--no-ingest").status == 0)
        let before = try world.bytes()
        let twice = try await cli.run("source", "add", "cold", "--kind", "esplora", "--url", world.simulator.esploraURL, "--address", Self.paidAddresses[1])
        #expect(twice.status == 65 && twice.stderr.contains("a source named 'cold' is already in"), "\(twice.stderr)")
        let secret = try await cli.run("source", "add", "ark", "--kind", "barkd", "--url", "http://user:hunter2@127.0.0.1:3000")
        #expect(secret.status == 64 && secret.stderr.contains("--url holds a credential") && !secret.stderr.contains("hunter2"), "\(secret.stderr)")
        let unknown = try await cli.run("source", "remove", "nope")
        #expect(unknown.status == 65 && unknown.stderr.contains("no source named 'nope'") && unknown.stderr.contains("configured: cold"), "\(unknown.stderr)")
        let down = try await cli.run("source", "add", "gone", "--kind", "esplora", "--url", "http://127.0.0.1:9/api", "--address", Self.paidAddresses[1])
        #expect(down.status == 1 && down.stderr.contains("source 'gone' does not answer as it should") && down.stderr.contains("down or unreachable"),
                "\(down.stderr)")
        #expect(try world.bytes() == before)
    }
}
