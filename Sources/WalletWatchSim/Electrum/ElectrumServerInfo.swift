/// What the Electrum face says about itself (`server.version`, `server.features`, `server.banner`).
struct ElectrumServerInfo: Sendable {
    /// The host the face listens on.
    let host: String
    let tcpPort: Int
    let tlsPort: Int
    /// The chain's genesis block hash.
    let genesisHash: String

    /// The first element of `server.version`'s answer, and `server_version` in the features.
    static let software = "walletwatch-sim 1.0"
    /// `server.banner`'s answer.
    static let banner = "You are connected to walletwatch-sim, the simulated Electrum server of walletwatch's tests."

    /// `server.features`' answer, shaped as ElectrumX's.
    var features: JSONValue {
        .object([
            .init("hosts", .object([.init(host, .object([.init("tcp_port", .int(Int64(tcpPort))), .init("ssl_port", .int(Int64(tlsPort)))]))])),
            .init("pruning", .null),
            .init("server_version", .string(Self.software)),
            .init("protocol_min", .string(ElectrumVersion.minimum.description)),
            .init("protocol_max", .string(ElectrumVersion.maximum.description)),
            .init("genesis_hash", .string(genesisHash)),
            .init("hash_function", .string("sha256")),
            .init("services", .array([.string("tcp://\(host):\(tcpPort)"), .string("ssl://\(host):\(tlsPort)")])),
        ])
    }
}
