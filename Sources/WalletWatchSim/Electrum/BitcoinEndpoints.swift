/// Where a real chain's faces listen and how to reach them: the Electrum face (TCP and TLS, its
/// certificate's files and fingerprint) and the Core JSON-RPC face, as `GET /control/electrum`
/// and `walletwatch-sim --endpoints-file` give them.
public struct BitcoinEndpoints: Sendable, Hashable, Codable {
    /// `http://HOST:PORT`, the simulator's HTTP face.
    public var http: String
    /// `tcp://HOST:PORT`, Electrum's notation for a plain connection.
    public var electrumTCP: String
    /// `ssl://HOST:PORT`, Electrum's notation for a TLS connection.
    public var electrumTLS: String
    /// The Electrum face's TCP port.
    public var electrumTCPPort: Int
    /// The Electrum face's TLS port.
    public var electrumTLSPort: Int
    /// Lowercase hex SHA-256 of the TLS certificate's DER bytes (what `certificate_sha256` pins).
    public var certificateSHA256: String
    /// The certificate's PEM file.
    public var certificatePath: String
    /// The private key's PEM file.
    public var keyPath: String
    /// `http://USER:PASSWORD@HOST:PORT/bitcoind/`, the Core face as ElectrumX's `DAEMON_URL` takes it.
    public var coreRPC: String
    /// The Core face's basic-auth user.
    public var coreRPCUser: String
    /// The Core face's basic-auth password.
    public var coreRPCPassword: String
    /// The chain's network (`regtest`).
    public var network: String
    /// The chain's genesis block hash.
    public var genesisHash: String

    private enum CodingKeys: String, CodingKey {
        case http, network
        case electrumTCP = "electrum_tcp", electrumTLS = "electrum_tls", electrumTCPPort = "electrum_tcp_port"
        case electrumTLSPort = "electrum_tls_port", certificateSHA256 = "certificate_sha256", certificatePath = "certificate_path"
        case keyPath = "key_path", coreRPC = "core_rpc", coreRPCUser = "core_rpc_user", coreRPCPassword = "core_rpc_password"
        case genesisHash = "genesis_hash"
    }
}
