import Foundation
import Testing
import TestSupport
import WalletWatchCore
@testable import WalletWatchEngine

@Suite("Configuration")
struct ConfigTests {
    /// CLI.md's example config, with every key.
    static let example = """
        database = "walletwatch.sqlite"      # relative to the config file's folder
        balance_cache_seconds = 300
        time_zone = "Europe/Berlin"          # optional, for display

        [[sources]]
        name = "ark"                          # unique; part of Ark txids, do not rename
        kind = "barkd"
        url = "http://127.0.0.1:3000"
        token_file = "barkd.token"            # or: token_env = "BARKD_TOKEN"
        ark_asset = "Ark wallet"              # asset created on first ingest, currency BTC
        onchain_asset = "Ark on-chain"        # optional: the daemon's on-chain wallet
        interval_seconds = 60

        [[sources]]
        name = "cold"
        kind = "esplora"
        url = "https://blockstream.info/api"
        asset = "Cold storage"
        addresses = ["bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq", "bc1q9vza2e8x573nczrlzms0wvx3gsqjx7vavgkx0l"]
        interval_seconds = 600

        [rates]
        provider = "coingecko"                # coingecko | mempool | static
        url = "https://api.coingecko.com/api/v3"
        currencies = ["USD", "EUR"]
        max_age_seconds = 300

        [rates.static]
        "BTC/USD" = "65000.00"

        [http]
        timeout_seconds = 20
        max_response_bytes = 67108864
        retries = 3

        [serve]
        listen = "127.0.0.1:8477"
        token_file = "web.token"
        """

    @Test("every key of CLI.md's example, with relative paths resolved against the file's folder")
    func example() throws {
        let config = try ConfigLoader.parse(Self.example, file: "/etc/ww/walletwatch.toml")
        #expect(config.database == "/etc/ww/walletwatch.sqlite")
        #expect(config.balanceCacheSeconds == 300)
        #expect(config.timeZone == "Europe/Berlin")
        #expect(config.sources.count == 2)
        let ark = config.sources[0]
        #expect(ark.kind == .barkd && ark.name == "ark" && ark.url == "http://127.0.0.1:3000")
        #expect(ark.token == .file("/etc/ww/barkd.token"))
        #expect(ark.arkAsset == "Ark wallet" && ark.onchainAsset == "Ark on-chain" && ark.intervalSeconds == 60)
        let cold = config.sources[1]
        #expect(cold.kind == .esplora && cold.asset == "Cold storage" && cold.addresses.count == 2 && cold.intervalSeconds == 600)
        #expect(config.rates.provider == .coingecko && config.rates.currencies == [.usd, .eur] && config.rates.maxAgeSeconds == 300)
        #expect(config.rates.staticRates[CurrencyPair("BTC/USD")!] == Decimal(string: "65000.00"))
        #expect(config.http == HTTPConfig(timeoutSeconds: 20, maxResponseBytes: 67_108_864, retries: 3))
        #expect(config.serve == ServeConfig(listen: "127.0.0.1:8477", tokenFile: "/etc/ww/web.token"))
    }

    @Test("defaults as CLI.md says when keys are left out")
    func defaults() throws {
        let config = try ConfigLoader.parse("""
            [[sources]]
            name = "a"
            kind = "barkd"
            url = "http://localhost:3000"
            token_env = "BARKD_TOKEN"
            """, file: "/home/u/.config/walletwatch/walletwatch.toml")
        #expect(config.database == "/home/u/.config/walletwatch/walletwatch.sqlite")
        #expect(config.balanceCacheSeconds == 300)
        #expect(config.timeZone == nil)
        #expect(config.sources[0].intervalSeconds == 60)
        #expect(config.sources[0].token == .environment("BARKD_TOKEN"))
        #expect(config.sources[0].arkAsset == "a")
        #expect(config.sources[0].onchainAsset == nil)
        #expect(config.rates == RatesConfig())
        #expect(config.rates.coingeckoURL == "https://api.coingecko.com/api/v3", "mempool users' other coins: CoinGecko's public API")
        #expect(config.http == HTTPConfig())
        #expect(config.serve == ServeConfig())
    }

    @Test("the starter config written by init parses")
    func starter() throws {
        let config = try ConfigLoader.parse(StarterConfig.text, file: "/x/walletwatch.toml")
        #expect(config.sources.isEmpty)
        #expect(config.database == "/x/walletwatch.sqlite")
    }

    @Test("errors name the file, the key and what is accepted", arguments: [
        ("database = 5", "database", "string"),
        ("balance_cache_seconds = \"300\"", "balance_cache_seconds", "whole number"),
        ("balance_cache_seconds = -1", "balance_cache_seconds", "accepted: 0 to"),
        ("time_zone = \"Mars/Olympus\"", "time_zone", "IANA"),
        ("colour = \"red\"", "colour", "not a known key"),
        ("[[sources]]\nname = \"a\"\nkind = \"bark\"\nurl = \"http://x\"", "sources[1].kind", "\"barkd\", \"esplora\", \"electrum\", \"evm\", \"fulmine\" or \"arkd\""),
        ("[[sources]]\nname = \"n\"\nkind = \"electrum\"\nurl = \"https://node:50002\"\naddresses = [\"bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4\"]",
         "sources[1].url", "ssl://HOST:PORT"),
        ("[[sources]]\nname = \"n\"\nkind = \"electrum\"\nurl = \"ssl://node\"\nnetwork = \"regtest\"\naddresses = [\"bcrt1qw508d6qejxtdg4y5r3zarvary0c5xw7kygt080\"]",
         "sources[1].url", "regtest servers have no usual one; write ssl://node:PORT"),
        ("[[sources]]\nname = \"n\"\nkind = \"electrum\"\nurl = \"tcp://node:50001\"\ncertificate_sha256 = \"00\"\naddresses = [\"bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4\"]",
         "sources[1].certificate_sha256", "applies to ssl:// servers only"),
        ("[[sources]]\nname = \"n\"\nkind = \"electrum\"\nurl = \"ssl://node:50002\"\ncertificate_sha256 = \"abc\"\naddresses = [\"bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4\"]",
         "sources[1].certificate_sha256", "64 hex digits"),
        ("[[sources]]\nname = \"n\"\nkind = \"electrum\"\nurl = \"ssl://node:50002\"", "sources[1].addresses", "list the addresses"),
        ("[[sources]]\nname = \"n\"\nkind = \"electrum\"\nurl = \"ssl://node:50002\"\nproxy = \"tor\"\naddresses = [\"bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4\"]",
         "sources[1].proxy", "socks5h://127.0.0.1:9050"),
        ("[http]\nproxy = \"ftp://proxy:21\"", "http.proxy", "proxy URL"),
        ("[[sources]]\nname = \"a\"\nkind = \"barkd\"", "sources[1].url", "is missing"),
        ("[[sources]]\nname = \"a\"\nkind = \"barkd\"\nurl = \"file:///etc/passwd\"", "sources[1].url", "http:// or https://"),
        ("[[sources]]\nname = \"a:b\"\nkind = \"barkd\"\nurl = \"http://x\"", "sources[1].name", "letters, digits"),
        ("[[sources]]\nname = \"a\"\nkind = \"barkd\"\nurl = \"http://x\"\ntoken_file = \"t\"\ntoken_env = \"T\"", "sources[1].token_file", "use one of them"),
        ("[[sources]]\nname = \"a\"\nkind = \"esplora\"\nurl = \"http://x\"", "sources[1].addresses", "list the addresses"),
        ("[[sources]]\nname = \"a\"\nkind = \"esplora\"\nurl = \"http://x\"\naddresses = [\"not an address!\"]", "sources[1].addresses", "not an address!"),
        // One letter of a real address (BIP173's P2WPKH example) mistyped: the checksum finds it.
        ("[[sources]]\nname = \"a\"\nkind = \"esplora\"\nurl = \"http://x\"\naddresses = [\"bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t5\"]",
         "sources[1].addresses", "'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t5' does not decode: checksum does not match (first bad character at position 42)"),
        ("[[sources]]\nname = \"a\"\nkind = \"esplora\"\nurl = \"http://x\"\naddresses = [\"bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4\", \"1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN3\"]",
         "sources[1].addresses", "'1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN3' does not decode"),
        ("[[sources]]\nname = \"a\"\nkind = \"esplora\"\nurl = \"http://x\"\naddresses = [\"tb1qw508d6qejxtdg4y5r3zarvary0c5xw7kxpjzsx\"]",
         "sources[1].addresses", "is an address for testnet or signet, not bitcoin"),
        ("[[sources]]\nname = \"a\"\nkind = \"esplora\"\nurl = \"http://x\"\nnetwork = \"mainnet\"\naddresses = [\"bc1pfeessrawgf\"]",
         "sources[1].network", "\"bitcoin\", \"testnet\", \"signet\", \"regtest\""),
        ("[[sources]]\nname = \"a\"\nkind = \"barkd\"\nurl = \"http://x\"\ninterval = 5", "sources[1].interval", "not a known key"),
        ("[[sources]]\nname = \"a\"\nkind = \"barkd\"\nurl = \"http://x\"\n[[sources]]\nname = \"a\"\nkind = \"barkd\"\nurl = \"http://y\"", "sources[2].name", "used twice"),
        ("[rates]\nprovider = \"kraken\"", "rates.provider", "coingecko, mempool or static"),
        ("[rates]\ncurrencies = [\"USD\", \"XYZ\"]", "rates.currencies", "unknown currency 'XYZ'"),
        ("[rates]\nprovider = \"static\"", "rates.static", "is missing"),
        ("[rates.static]\n\"BTC-USD\" = \"1\"", "rates.static.BTC-USD", "currency pair"),
        ("[rates.static]\n\"BTC/USD\" = \"-1\"", "rates.static.BTC/USD", "positive rate"),
        ("[rates]\nprovider = \"mempool\"\ncoingecko_url = \"ftp://x/api/v3\"", "rates.coingecko_url", "an http:// or https:// URL"),
        ("[http]\nretries = 100", "http.retries", "accepted: 0 to 10"),
        ("[serve]\nlisten = \"localhost\"", "serve.listen", "host:port"),
        ("database = ", "line 1", "column"),
    ])
    func errors(text: String, key: String, accepted: String) {
        #expect {
            try ConfigLoader.parse(text, file: "/etc/ww/walletwatch.toml")
        } throws: { error in
            let message = (error as? ConfigError)?.description ?? ""
            return message.contains("/etc/ww/walletwatch.toml") && message.contains(key) && message.contains(accepted)
        }
    }

    @Test("an electrum source: Electrum's URL notation with its default ports, a pinned certificate, the wallet keys, a long interval")
    func electrumSource() throws {
        let pin = "AB:CD:" + Array(repeating: "EF", count: 30).joined(separator: ":")
        let config = try ConfigLoader.parse("""
            [[sources]]
            name = "node"
            kind = "electrum"
            url = "ssl://Umbrel.local"
            asset = "Hardware wallet"
            xpub = "zpub6rFR7y4Q2AijBEqTUquhVz398htDFrtymD9xYYfG1m4wAcvPhXNfE3EfH1r1ADqtfSdVCToUG868RvUUkgDKf31mGDtKsAYz2oz2AGutZYs"
            certificate_sha256 = "\(pin)"
            [[sources]]
            name = "tor"
            kind = "electrum"
            url = "tcp://abcdefghij234567abcdefghij234567abcdefghij234567abcdefgh.onion:50001"
            addresses = ["bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4"]
            [[sources]]
            name = "test"
            kind = "electrum"
            network = "testnet"
            url = "tcp://[::1]"
            proxy = ""
            addresses = ["tb1qw508d6qejxtdg4y5r3zarvary0c5xw7kxpjzsx"]
            [http]
            proxy = "socks5h://127.0.0.1:9050"
            """, file: "/x/walletwatch.toml")
        let node = try #require(config.source(named: "node"))
        #expect(node.kind == .electrum && node.url == "ssl://umbrel.local:50002" && node.intervalSeconds == 3600)
        #expect(node.certificateSHA256 == "abcd" + String(repeating: "ef", count: 30))
        #expect(node.wallet != nil && node.asset == "Hardware wallet" && node.proxy == nil)
        #expect(config.source(named: "tor")?.url.hasSuffix(".onion:50001") == true)
        let test = try #require(config.source(named: "test"))
        #expect(test.url == "tcp://[::1]:60001" && test.proxy == "")
        #expect(config.http.routing.proxy == "socks5h://127.0.0.1:9050" && config.http.routing.noProxy == "localhost,127.0.0.1,::1")
        // The routes: the config's proxy, except for what no_proxy names and for a source's own "".
        #expect(config.http.routing.route(own: node.proxy).proxy(for: node.host) == "socks5h://127.0.0.1:9050")
        #expect(config.http.routing.route(own: nil).proxy(for: "127.0.0.1") == nil)
        #expect(config.http.routing.route(own: test.proxy).proxy(for: test.host) == nil)
    }

    /// SPEC.md section 22: an onion host reached directly could only leak a DNS query for its name.
    @Test("an onion host without a proxy is refused when the config is read, exit 65, naming the entry")
    func onionWithoutProxy() throws {
        let onion = "abcdefghij234567abcdefghij234567abcdefghij234567abcdefgh.onion"
        let cases: [(String, String)] = [
            ("[[sources]]\nname = \"tor\"\nkind = \"electrum\"\nurl = \"ssl://\(onion):50002\"\naddresses = [\"bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4\"]",
             "sources[1] 'tor' is an onion service (\(onion))"),
            ("[[sources]]\nname = \"ex\"\nkind = \"esplora\"\nurl = \"http://\(onion)/api\"\nproxy = \"\"\naddresses = [\"bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4\"]\n[http]\nproxy = \"socks5h://127.0.0.1:9050\"",
             "sources[1] 'ex' is an onion service"),
            ("[[notify]]\nname = \"hook\"\nurl = \"http://\(onion)/hook\"", "notify[1] 'hook' is an onion service"),
            ("[rates]\nprovider = \"mempool\"\nurl = \"http://\(onion)/api\"", "[rates] url is an onion service"),
            ("[rates]\nprovider = \"mempool\"\ncoingecko_url = \"http://\(onion)/api/v3\"", "[rates] coingecko_url is an onion service"),
            ("[http]\nproxy = \"socks5h://127.0.0.1:9050\"\nno_proxy = \"*\"\n[[notify]]\nname = \"hook\"\nurl = \"http://\(onion)/hook\"",
             "notify[1] 'hook' is an onion service"),
        ]
        for (text, message) in cases {
            #expect {
                try ConfigLoader.parse(text, file: "/x/walletwatch.toml")
            } throws: { error in
                guard let error = error as? ConfigError else { return false }
                return error.kind == .refused && error.description.contains(message) && error.description.contains("socks5h://127.0.0.1:9050")
            }
        }
        // With a proxy the same entries are accepted.
        let accepted = try ConfigLoader.parse("[http]\nproxy = \"socks5h://127.0.0.1:9050\"\n[[notify]]\nname = \"hook\"\nurl = \"http://\(onion)/hook\"",
                                              file: "/x/walletwatch.toml")
        #expect(accepted.notify.first?.proxy == nil)
    }

    /// Issue 26: strace showed the name reaching the local DNS. A trailing dot (`xxx.onion.`,
    /// the same name fully qualified) passed the check, and a `socks5://` proxy, which libcurl
    /// lets resolve names on this machine, counted as a route.
    @Test("an onion name with trailing dots, or behind a proxy that resolves names locally, is refused; socks5h, socks4a and http proxies are routes")
    func onionNamesAndResolvingProxies() throws {
        let onion = "abcdefghij234567abcdefghij234567abcdefghij234567abcdefgh.onion"
        func source(_ host: String, proxy: String?) -> String {
            "[[sources]]\nname = \"tor\"\nkind = \"electrum\"\nurl = \"ssl://\(host):50002\"\naddresses = [\"bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4\"]"
                + (proxy.map { "\n[http]\nproxy = \"\($0)\"" } ?? "")
        }
        let refused: [(String, String)] = [
            (source(onion + ".", proxy: nil), "no proxy leads there"),
            (source(onion.uppercased() + "..", proxy: nil), "no proxy leads there"),
            (source(onion, proxy: "socks5://127.0.0.1:9050"), "its proxy socks5://127.0.0.1:9050 resolves names on this machine (write socks5h://"),
            (source(onion + ".", proxy: "socks4://127.0.0.1:9050"), "its proxy socks4://127.0.0.1:9050 resolves names on this machine"),
            ("[[notify]]\nname = \"hook\"\nurl = \"http://\(onion)./hook\"\nproxy = \"SOCKS5://127.0.0.1:9050\"", "notify[1] 'hook' is an onion service"),
        ]
        for (text, message) in refused {
            #expect {
                try ConfigLoader.parse(text, file: "/x/walletwatch.toml")
            } throws: { error in
                guard let error = error as? ConfigError else { return false }
                return error.kind == .refused && error.description.contains("is an onion service") && error.description.contains(message)
                    && error.description.contains("leak its name to your DNS")
            }
        }
        for proxy in ["socks5h://127.0.0.1:9050", "socks4a://127.0.0.1:9050", "http://127.0.0.1:8118", "https://proxy.example:3129"] {
            #expect(throws: Never.self) { try ConfigLoader.parse(source(onion + ".", proxy: proxy), file: "/x/walletwatch.toml") }
        }
        #expect(NetworkRouting.isOnion(onion + "...") && !NetworkRouting.isOnion("onion.example.com.") && !NetworkRouting.isOnion("notanonion"))
    }

    @Test("addresses are checked by their encoding: P2A's 14 letters pass, a network is chosen, bech32 is lowercased")
    func addressEncodings() throws {
        let config = try ConfigLoader.parse("""
            [[sources]]
            name = "main"
            kind = "esplora"
            url = "http://x"
            addresses = ["bc1pfeessrawgf", "BC1QW508D6QEJXTDG4Y5R3ZARVARY0C5XW7KV8F3T4", "1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2"]
            [[sources]]
            name = "test"
            kind = "esplora"
            url = "http://y"
            network = "testnet"
            addresses = ["tb1qw508d6qejxtdg4y5r3zarvary0c5xw7kxpjzsx", "2MzQwSSnBHWHqSAqtTVQ6v47XtaisrJa1Vc"]
            """, file: "/etc/ww/walletwatch.toml")
        #expect(config.sources[0].network == .bitcoin)
        #expect(config.sources[0].addresses == ["bc1pfeessrawgf", "bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4", "1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2"])
        #expect(config.sources[1].network == .testnet && config.sources[1].addresses.count == 2)
    }

    @Test("a private key where an address belongs is refused without being repeated")
    func privateKeyAsAddress() {
        // BIP32 test vector 1's master private key.
        let xprv = "xprv9s21ZrQH143K3QTDL4LXw2F7HEK3wJUD2nW2nRk4stbPy6cq3jPPqjiChkVvvNKmPGJxWUtg6LZ7EqzhpDrCZmZV7PmxqtkhBXgNvzBn1C3"
        #expect {
            try ConfigLoader.parse("[[sources]]\nname = \"a\"\nkind = \"esplora\"\nurl = \"http://x\"\naddresses = [\"\(xprv)\"]", file: "/w.toml")
        } throws: { error in
            let message = (error as? ConfigError)?.description ?? ""
            return message.contains("private key") && !message.contains(xprv) && !message.contains(String(xprv.dropFirst(4).prefix(12)))
        }
    }

    @Test("locating: --config, then WALLETWATCH_CONFIG, then ./walletwatch.toml, then ~/.config")
    func locate() {
        let folder = TemporaryDirectory()
        let environment = ["HOME": "/home/u"]
        #expect(ConfigLoader.locate(explicit: "a.toml", environment: environment, currentDirectory: folder.path) == (folder.file("a.toml"), true))
        #expect(ConfigLoader.locate(explicit: nil, environment: ["WALLETWATCH_CONFIG": "/x/w.toml"], currentDirectory: folder.path) == ("/x/w.toml", true))
        #expect(ConfigLoader.locate(explicit: nil, environment: environment, currentDirectory: folder.path) == ("/home/u/.config/walletwatch/walletwatch.toml", false))
        #expect(ConfigLoader.locate(explicit: nil, environment: ["XDG_CONFIG_HOME": "/xdg"], currentDirectory: folder.path).path == "/xdg/walletwatch/walletwatch.toml")
        folder.write("walletwatch.toml", "")
        #expect(ConfigLoader.locate(explicit: nil, environment: environment, currentDirectory: folder.path) == (folder.file("walletwatch.toml"), false))
    }

    @Test("listen addresses and loopback")
    func listen() {
        #expect(ListenAddress("127.0.0.1:8477")?.isLoopback == true)
        #expect(ListenAddress("[::1]:8477")?.isLoopback == true)
        #expect(ListenAddress("0.0.0.0:8477")?.isLoopback == false)
        #expect(ListenAddress("127.255.0.9:8477")?.isLoopback == true)
        #expect(ListenAddress("[::2]:8477")?.isLoopback == false)
        // A host name that merely starts like a loopback address may resolve anywhere.
        #expect(ListenAddress("127.box.lan:8477")?.isLoopback == false)
        #expect(ListenAddress("127.0.0.1.nip.io:8477")?.isLoopback == false)
        #expect(ListenAddress("1270.0.0.1:8477")?.isLoopback == false)
        #expect(ListenAddress("127.0.0.1:0")?.port == 0, "port 0 picks any free port")
        #expect(ListenAddress("127.0.0.1:65536") == nil)
        #expect(ListenAddress("127.0.0.1") == nil)
    }
}

@Suite("The wall clock")
struct WallClockTests {
    @Test("WALLETWATCH_NOW fixes now; a malformed value is a usage error naming it")
    func environment() throws {
        #expect(try WallClock.fromEnvironment(["WALLETWATCH_NOW": "2026-11-21T09:30:00Z"]).now == .at("2026-11-21T09:30:00Z"))
        #expect {
            try WallClock.fromEnvironment(["WALLETWATCH_NOW": "yesterday"])
        } throws: { error in
            (error as? UsageError)?.message.contains("yesterday") == true
        }
        let system = try WallClock.fromEnvironment([:]).now
        #expect(system > .at("2026-01-01T00:00:00Z"))
    }
}

@Suite("Configuration: [backup]")
struct BackupConfigTests {
    @Test("CLI.md's [backup] example: the folder relative to the config's folder; without the table no schedule, keep 7")
    func example() throws {
        let config = try ConfigLoader.parse("""
            [backup]
            folder = "backups"                     # relative to the config file's folder
            every_hours = 24                       # the daemon's schedule; 0 = never
            keep = 7
            """, file: "/etc/ww/walletwatch.toml")
        #expect(config.backup == BackupConfig(folder: "/etc/ww/backups", everyHours: 24, keep: 7))
        let plain = try ConfigLoader.parse("", file: "/etc/ww/walletwatch.toml")
        #expect(plain.backup == BackupConfig(folder: nil, everyHours: 0, keep: 7))
        #expect(try ConfigLoader.parse(StarterConfig.text, file: "/x/walletwatch.toml").backup == BackupConfig(everyHours: 24, keep: 7))
    }

    @Test("errors name the key and what is accepted", arguments: [
        ("[backup]\nevery_hours = -1", "backup.every_hours", "accepted: 0 to 8760"),
        ("[backup]\nkeep = 0", "backup.keep", "accepted: 1 to 10000"),
        ("[backup]\nfolder = 3", "backup.folder", "string"),
        ("[backup]\nevery = 24", "backup.every", "not a known key"),
    ])
    func errors(text: String, key: String, accepted: String) {
        #expect {
            try ConfigLoader.parse(text, file: "/etc/ww/walletwatch.toml")
        } throws: { error in
            let message = (error as? ConfigError)?.description ?? ""
            return message.contains(key) && message.contains(accepted)
        }
    }
}
