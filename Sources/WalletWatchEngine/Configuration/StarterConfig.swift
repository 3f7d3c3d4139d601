/// The commented config that `walletwatch init` writes: every key of CLI.md, explained, with
/// the sources commented out until the user fills them in.
public enum StarterConfig {
    public static let text = """
        # walletwatch configuration. Relative paths are resolved against this file's folder.
        # Keep this file private (walletwatch creates it with mode 0600): it points at your secrets.

        # The SQLite database with your ledger, tags, goals and allocations.
        database = "walletwatch.sqlite"

        # `walletwatch balance` answers from stored balances younger than this (seconds).
        balance_cache_seconds = 300

        # Time zone for tables (JSON is always UTC). Default: UTC.
        # time_zone = "Europe/Berlin"

        # A barkd daemon (the REST wallet daemon of the bark Ark wallet).
        # [[sources]]
        # name = "ark"                      # unique; part of Ark txids, do not rename
        # kind = "barkd"
        # url = "http://127.0.0.1:3000"
        # token_file = "barkd.token"        # or: token_env = "BARKD_TOKEN" (never on the command line)
        # ark_asset = "Ark wallet"          # created on first ingest, currency BTC
        # onchain_asset = "Ark on-chain"    # optional: the daemon's on-chain wallet
        # interval_seconds = 60

        # Addresses watched through an Esplora explorer (Blockstream, mempool.space, your own).
        # [[sources]]
        # name = "cold"
        # kind = "esplora"
        # url = "https://blockstream.info/api"
        # asset = "Cold storage"
        # addresses = ["bc1q..."]          # each checked by its checksum when the config is read
        # network = "bitcoin"              # bitcoin | testnet | signet | regtest
        # interval_seconds = 600

        # An HD wallet (Sparrow, Electrum, a hardware wallet): its output descriptor or its xpub,
        # never a private key. Receive and change addresses are found with a gap limit.
        # [[sources]]
        # name = "hodl"
        # kind = "esplora"
        # url = "https://mempool.space/api"
        # asset = "Hardware wallet"
        # descriptors = ["wpkh([d34db33f/84h/0h/0h]xpub6C.../<0;1>/*)#checksum"]
        # xpub = "zpub6r..."               # instead of descriptors: xpub/ypub/zpub (tpub/upub/vpub)
        # addresses = ["bc1q..."]          # may be added: the same wallet
        # gap_limit = 20                   # unused receive addresses in a row before discovery stops
        # change_gap_limit = 20
        # max_addresses_per_pass = 10000   # the most addresses one pass adds (a lying server cannot grow it without end)

        # The same wallet through your own node's Electrum server (electrs, Fulcrum, ElectrumX on
        # Umbrel, Start9, RaspiBlitz): no explorer learns your addresses, and `run` is told of a
        # payment the moment your node sees it. README: "Watching through your own node".
        # [[sources]]
        # name = "node"
        # kind = "electrum"
        # url = "ssl://umbrel.local:50002"  # or tcp://HOST:50001; over Tor: ssl://xxxx.onion:50002
        # asset = "Hardware wallet"
        # descriptors = ["wpkh([d34db33f/84h/0h/0h]xpub6C.../<0;1>/*)#checksum"]
        # certificate_sha256 = "..."        # pins a self-signed node certificate (openssl x509 -fingerprint -sha256)
        # proxy = ""                        # this source's own proxy; "" = direct

        [rates]
        provider = "coingecko"              # coingecko | mempool | static
        # url = "https://api.coingecko.com/api/v3"
        # coingecko_url = "https://api.coingecko.com/api/v3"  # with mempool (BTC only): prices the other coins
        currencies = ["USD", "EUR"]         # every coin held is priced in these and the display currency
        max_age_seconds = 300
        # With provider = "static", rates come from here instead:
        # [rates.static]
        # "BTC/USD" = "65000.00"

        [http]
        timeout_seconds = 20
        max_response_bytes = 67108864
        retries = 3
        concurrency = 4                     # requests in flight to one source (an HD wallet's addresses)
        # proxy = "socks5h://127.0.0.1:9050"  # every connection through Tor's SOCKS port
        # no_proxy = "localhost,127.0.0.1,::1" # reached directly (the default)

        [serve]
        listen = "127.0.0.1:8477"
        # token_file = "web.token"          # required when listen is not a loopback address

        # Consistent copies of the database (`walletwatch backup`; `run` and `serve` on a schedule).
        [backup]
        # folder = "backups"                # default: "backups" beside the database
        every_hours = 24                    # the daemon's schedule; 0 = never
        keep = 7                            # the newest backups kept in the folder

        """
}
