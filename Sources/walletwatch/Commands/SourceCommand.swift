import ArgumentParser
import Foundation
import WalletWatchCore
import WalletWatchEngine
import WalletWatchPresentation

struct SourceCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "source",
        abstract: "Add a source to the config in one command, list the sources, remove one.",
        discussion: """
            `source add` writes the [[sources]] block you would otherwise write by hand, after \
            checking it and asking the server; `source remove` takes one out. Both keep every \
            other byte of the config file (comments included) and replace it atomically.
            """,
        subcommands: [Add.self, List.self, Remove.self])

    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "add",
            abstract: "Check a source, ask its server, append it to the config and run its first pass.",
            discussion: """
                Each flag is named after the config key it writes (README, "Configuration"). \
                First what is given is checked as the config would be read (address and \
                descriptor checksums, the network, a private key refused without being \
                repeated); then the server is asked what `walletwatch doctor` asks; then the \
                [[sources]] block is appended at the end of the config file, every byte already \
                there kept, and the file replaced atomically with its mode; then the source's \
                first pass runs (--no-ingest skips it). Nothing is written when a check fails.

                A bare xpub (xpub or tpub, which say no script type) is tried as wpkh, \
                sh(wpkh), pkh and tr, as Sparrow does: the types with history among the first \
                gap_limit receive (or change_gap_limit change) addresses are kept, each as a \
                source of its own named NAME-wpkh, NAME-tr... (one wallet has one receive \
                chain); with one type kept, the source keeps NAME. With none, wpkh is assumed.

                An ssl:// Electrum server whose certificate this system does not trust (a \
                node's self-signed one): on a terminal its SHA-256 is shown and you are asked \
                whether to pin it; without a terminal the command refuses and prints the --pin \
                flag to run it again with, once you have compared the fingerprint with the \
                node's. Nothing is ever asked without a terminal. Tokens are named by file \
                (--token-file), never given on the command line.

                An evm source watches addresses on one chain (--chain, or --chain-id with \
                --native) through a JSON-RPC node: the node is asked its chain id, and another \
                chain than the one given is refused. A provider's URL that holds a key \
                (Infura's .../v3/KEY) is never given as --url (refused: the process list shows \
                it): write it into a file only you can read and give --url-file, or name an \
                environment variable with --url-env. --token adds a token (a built-in code such \
                as USDC, or 0xCONTRACT=CODE); --history says where the history comes from \
                (etherscan, an Etherscan or Blockscout API at --history-url; otterscan, your \
                Erigon node; none, your node's logs). A fulmine source is an Arkade wallet \
                daemon (its API has no authentication: a url off loopback draws a warning); an \
                arkd source watches Ark addresses (ark1... on bitcoin, tark1... with --network \
                testnet or another test network) through an Ark server's indexer.

                Examples:
                  walletwatch source add ark --kind barkd \\
                    --url http://127.0.0.1:3000 --token-file barkd.token
                  walletwatch source add cold --kind esplora \\
                    --url https://mempool.space/api --address bc1q... --address bc1q...
                  walletwatch source add hodl --kind esplora \\
                    --url https://mempool.space/api --descriptor "wpkh([...]xpub.../<0;1>/*)"
                  walletwatch source add node --kind electrum \\
                    --url ssl://umbrel.local:50002 --xpub xpub6C... --asset "Hardware"
                  walletwatch source add node --kind electrum \\
                    --url ssl://umbrel.local:50002 --xpub zpub6r... --pin 9f86d081...
                  walletwatch source add eth --kind evm --chain ethereum \\
                    --url-file infura.url --token USDC \\
                    --address 0x52908400098527886E0F7030069857D2E4169EE7 \\
                    --history etherscan --api-key-file etherscan.key
                  walletwatch source add arkade --kind fulmine \\
                    --url http://127.0.0.1:7001/api --asset "Arkade wallet"
                  walletwatch source add ark-watch --kind arkd \\
                    --url https://arkade.computer --address ark1q... --asset "Ark savings"
                """)

        @OptionGroup var global: GlobalOptions
        @Argument(help: "The source's name: unique; letters, digits, '-', '_' or '.'.") var name: String
        @Option(help: "The kind of source: barkd, esplora, electrum, evm, fulmine or arkd (each kind the config knows).") var kind: String
        @Option(help: "url: the server (http(s):// for barkd, esplora, evm's JSON-RPC node, fulmine, arkd; ssl:// or tcp:// for electrum). Never a URL with a key in it: see --url-file.")
        var url: String?
        @Option(help: "asset: the asset it feeds (barkd: ark_asset; evm: the chain's coin). Default: the source's name (evm: \"NAME CODE\").") var asset: String?
        @Option(name: .customLong("ark-asset"), help: "barkd's ark_asset.") var arkAsset: String?
        @Option(name: .customLong("onchain-asset"), help: "barkd's onchain_asset: also track the daemon's on-chain wallet.") var onchainAsset: String?
        @Option(help: "network: bitcoin (default), testnet, signet or regtest (esplora, electrum, arkd).") var network: String?
        @Option(help: "descriptors: an output descriptor (repeatable: a /0/* and /1/* pair).") var descriptor: [String] = []
        @Option(help: "xpub: an extended public key; a bare xpub/tpub is tried as each script type.") var xpub: String?
        @Option(help: "addresses: an address to watch (repeatable): bitcoin (esplora, electrum), 0x... with its EIP-55 case (evm), ark1.../tark1... (arkd).")
        var address: [String] = []
        @Option(name: .customLong("gap-limit"), help: "gap_limit: unused receive addresses in a row before discovery stops.") var gapLimit: Int?
        @Option(name: .customLong("change-gap-limit"), help: "change_gap_limit: the same for the change chain.") var changeGapLimit: Int?
        @Option(name: .customLong("token-file"), help: "token_file: the file holding barkd's bearer token.") var tokenFile: String?
        @Option(help: ArgumentHelp("certificate_sha256: pin the server's certificate (its SHA-256, colons allowed).", valueName: "sha256"))
        var pin: String?
        @Option(help: "proxy: this source's own proxy (\"\" = direct).") var proxy: String?
        @Option(name: .customLong("interval-seconds"), help: "interval_seconds: how often the daemon asks.") var intervalSeconds: Int?
        @Option(help: "chain: an evm source's chain: ethereum, arbitrum, optimism, base, polygon or bsc.") var chain: String?
        @Option(name: .customLong("chain-id"), help: "chain_id: any other EVM chain, by its id (with --native).") var chainID: Int?
        @Option(help: "native: the coin of a chain given by --chain-id (a currency of `walletwatch currency list`).") var native: String?
        @Option(name: .customLong("url-file"), help: "url_file: the file holding an evm source's JSON-RPC URL (a provider's URL with its key).") var urlFile: String?
        @Option(name: .customLong("url-env"), help: "url_env: the environment variable holding it instead.") var urlEnv: String?
        @Option(help: "tokens: a token an evm source watches (repeatable; a built-in CODE such as USDC, or 0xCONTRACT=CODE).") var token: [String] = []
        @Option(name: .customLong("token-asset"), help: "token_assets: a token's asset name, CODE=NAME (repeatable). Default: \"NAME CODE\".")
        var tokenAsset: [String] = []
        @Option(help: "history: where an evm source's history comes from: etherscan (default), otterscan or none.") var history: String?
        @Option(name: .customLong("history-url"), help: "history_url: an Etherscan-compatible API (a Blockscout's /api). Default: Etherscan's V2.")
        var historyURL: String?
        @Option(name: .customLong("api-key-file"), help: "api_key_file: the file holding the history API's key.") var apiKeyFile: String?
        @Option(name: .customLong("api-key-env"), help: "api_key_env: the environment variable holding it instead.") var apiKeyEnv: String?
        @Option(help: "confirmations: finalized (default) or a block count, before an evm payment is confirmed.") var confirmations: String?
        @Flag(name: .customLong("no-ingest"), help: "Do not run the first pass.") var noIngest = false
        @OptionGroup var output: JSONOption

        /// Every flag given, by the config key it names.
        var flags: [SourceFlag: [String]] {
            var flags: [SourceFlag: [String]] = [:]
            let single: [(SourceFlag, String?)] = [
                (.url, url), (.asset, asset), (.arkAsset, arkAsset), (.onchainAsset, onchainAsset), (.network, network), (.xpub, xpub),
                (.gapLimit, gapLimit.map(String.init)), (.changeGapLimit, changeGapLimit.map(String.init)), (.tokenFile, tokenFile),
                (.pin, pin), (.proxy, proxy), (.intervalSeconds, intervalSeconds.map(String.init)), (.chain, chain),
                (.chainID, chainID.map(String.init)), (.native, native), (.urlFile, urlFile), (.urlEnv, urlEnv), (.history, history),
                (.historyURL, historyURL), (.apiKeyFile, apiKeyFile), (.apiKeyEnv, apiKeyEnv), (.confirmations, confirmations),
            ]
            for (flag, value) in single { if let value { flags[flag] = [value] } }
            flags[.descriptor] = descriptor
            flags[.address] = address
            flags[.token] = token
            flags[.tokenAsset] = tokenAsset
            return flags
        }

        func run() async throws {
            let context = try CommandContext.load(global)
            let request = try SourceRequest(name: name, kind: kind, flags: flags, currentDirectory: FileManager.default.currentDirectoryPath)
            let setup = context.engine.sourceSetup
            // Someone is asked only at a terminal; a script gets the refusal with the --pin flag.
            var trust: CertificateTrust?
            if TerminalQuestion.isAvailable { trust = { certificate in await TerminalQuestion.trust(certificate) } }
            let plan = try await setup.prepare(request, trust: trust)
            try setup.write(plan)
            // Fulmine's API spends the wallet for whoever reaches it: said on stderr too, also with --json.
            for source in plan.added where source.kind == .fulmine {
                if let warning = Doctor.unauthenticatedWarning(source) { Output.warning("source '\(source.name)': \(warning.hasPrefix("warning: ") ? String(warning.dropFirst(9)) : warning)") }
            }
            let names = plan.added.map(\.name)
            if !output.json { report(plan) }
            var pass: [IngestReport]?
            if !noIngest {
                let progress = PassProgress(sources: names, http: context.engine.http, wanted: !output.json)
                progress.start()
                pass = await setup.firstPass(plan)
                await progress.finish()
            }
            let assets = try setup.assetNames(of: names)
            if output.json {
                Output.json(SourceDocument.added(plan, assets: assets, pass: pass))
            } else if let pass {
                for report in pass where report.ok {
                    let stored = assets[report.source].map { $0.map { "'\($0)'" }.joined(separator: ", ") } ?? "none yet"
                    Output.line("first pass of '\(report.source)': \(report.counts.new) new transaction(s) in \(report.duration.milliseconds) ms; assets: \(stored)")
                }
            } else {
                Output.line("no first pass (--no-ingest): `walletwatch ingest --source \(names[0])` runs it")
            }
            for report in pass ?? [] {
                for warning in report.warnings { Output.warning("source '\(report.source)': \(warning)") }
            }
            let failed = (pass ?? []).filter { !$0.ok }
            for report in failed {
                Output.error("the source was added, but its first pass failed: \(report.error ?? "source '\(report.source)' failed")")
            }
            if !failed.isEmpty { throw ExitCode(1) }
        }

        /// What was written, before the first pass runs.
        func report(_ plan: SourcePlan) {
            for (source, check) in zip(plan.added, plan.checks) {
                Output.line("added source '\(source.name)' (\(source.kind.rawValue)) to \(plan.file)")
                Output.line("  checked: \(check.detail)")
            }
            if let pin = plan.trustedCertificate {
                Output.line("pinned the server's certificate (SHA-256 \(pin.colonSeparated)): certificate_sha256 = \"\(pin.hex)\"")
            }
            if let scan = plan.scriptTypes {
                let kept = scan.kept.map(\.scriptType.rawValue)
                let window = "the first \(scan.receiveWindow) receive and \(scan.changeWindow) change addresses"
                if scan.foundHistory {
                    let without = scan.candidates.filter { !$0.hasHistory }.map(\.scriptType.rawValue)
                    Output.line("the xpub has history as \(kept.joined(separator: " and "))"
                                + (without.isEmpty ? "" : " (none as \(without.joined(separator: ", ")) in \(window))")
                                + (plan.added.count > 1 ? ": one source each, \(plan.added.map { "'\($0.name)'" }.joined(separator: ", "))" : ""))
                } else {
                    Output.line("no script type of the xpub has history in \(window): watching it as wpkh (native segwit); give --descriptor to choose another")
                }
            }
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "list",
            abstract: "List the sources: kind, assets, last pass and its result.",
            discussion: """
                The configured sources in the config's order, then sources no longer in the \
                config whose assets are still stored (state "removed").

                JSON: [{"name", "kind", "assets", "last_pass", "state": "ok"|"failed"|"never"|"removed", "error"}].

                Examples:
                  walletwatch source list
                  walletwatch source list --json
                """)
        @OptionGroup var global: GlobalOptions
        @OptionGroup var output: JSONOption

        func run() async throws {
            let context = try CommandContext.load(global, readOnly: true)
            let rows = try context.engine.sourceSetup.list()
            if output.json {
                Output.json(SourceDocument.list(rows))
                return
            }
            guard !rows.isEmpty else {
                Output.line("no sources configured; add one: walletwatch source add NAME --kind KIND --url URL ...")
                return
            }
            let zone = context.engine.preferences.displayTimeZone
            var table = TextTable([.init("SOURCE"), .init("KIND"), .init("ASSETS"), .init("LAST PASS"), .init("STATE"), .init("ERROR")])
            for row in rows {
                table.add([row.name, row.kind ?? "-", row.assets.isEmpty ? "-" : row.assets.joined(separator: ", "),
                           row.lastPass.map { DisplayFormat.time($0, zone) } ?? "-", row.state.rawValue, row.error ?? ""])
            }
            Output.lines(table.render())
        }
    }

    struct Remove: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "remove",
            abstract: "Take a source out of the config; its assets and their history stay.",
            discussion: """
                The source's [[sources]] block leaves the config file; every other byte stays \
                as it was, and the file is replaced atomically with its mode. Its assets and \
                their transactions stay in the database (they show in `asset list`, and \
                `source list` lists the source as removed). A running `walletwatch run` or \
                `serve` keeps watching it until it is restarted.

                Example:
                  walletwatch source remove cold
                """)
        @OptionGroup var global: GlobalOptions
        @Argument(help: "The source's name.") var name: String
        @OptionGroup var output: JSONOption

        func run() async throws {
            let context = try CommandContext.load(global)
            let removal = try context.engine.sourceSetup.remove(name)
            if output.json {
                Output.json(SourceDocument.removed(removal))
                return
            }
            Output.line("removed source '\(removal.name)' (\(removal.kind)) from \(removal.file)")
            if removal.assets.isEmpty {
                Output.line("it had no stored assets")
            } else {
                let names = removal.assets.map { "'\($0)'" }.joined(separator: ", ")
                Output.line("its asset(s) \(names) and their \(removal.transactions) transaction(s) stay in the database; no pass updates them any more")
            }
            Output.line("a running `walletwatch run` or `serve` keeps watching it until it is restarted")
        }
    }
}
