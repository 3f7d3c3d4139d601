import Foundation

/// A real chain's Electrum face as the simulator runs it: the server, its TLS identity's files
/// (in a temporary folder removed at stop, unless the caller named one) and the endpoints.
final class ElectrumFace: Sendable {
    let endpoints: BitcoinEndpoints
    private let server: ElectrumServer
    private let temporaryDirectory: String?

    private init(endpoints: BitcoinEndpoints, server: ElectrumServer, temporaryDirectory: String?) {
        self.endpoints = endpoints
        self.server = server
        self.temporaryDirectory = temporaryDirectory
    }

    /// Makes the TLS identity, starts listening, and describes where.
    static func start(state: SimulatorState, bitcoin: BitcoinScenario, host: String, baseURL: String, ports: (tcp: Int, tls: Int),
                      tlsDirectory: String?) async throws -> ElectrumFace {
        let temporary = tlsDirectory == nil
            ? (NSTemporaryDirectory() as NSString).appendingPathComponent("walletwatch-sim-tls-\(UUID().uuidString.prefix(8))") : nil
        do {
            let identity = try TLSIdentity(directory: tlsDirectory ?? temporary ?? "")
            let genesisHash = await state.blockHash(0)
            let server = try await ElectrumServer.start(state: state, host: host, tcpPort: ports.tcp, tlsPort: ports.tls, identity: identity,
                                                        genesisHash: genesisHash)
            let hostInURL = host.contains(":") ? "[\(host)]" : host
            let core = baseURL.replacingOccurrences(of: "http://", with: "http://\(bitcoin.rpcUser):\(bitcoin.rpcPassword)@") + "/bitcoind/"
            let endpoints = BitcoinEndpoints(
                http: baseURL, electrumTCP: "tcp://\(hostInURL):\(server.tcpPort)", electrumTLS: "ssl://\(hostInURL):\(server.tlsPort)",
                electrumTCPPort: server.tcpPort, electrumTLSPort: server.tlsPort, certificateSHA256: identity.certificateSHA256,
                certificatePath: identity.certificatePath, keyPath: identity.keyPath, coreRPC: core, coreRPCUser: bitcoin.rpcUser,
                coreRPCPassword: bitcoin.rpcPassword, network: bitcoin.network, genesisHash: genesisHash)
            await state.setEndpoints(endpoints)
            return ElectrumFace(endpoints: endpoints, server: server, temporaryDirectory: temporary)
        } catch {
            if let temporary { try? FileManager.default.removeItem(atPath: temporary) }
            throw error
        }
    }

    /// Closes the listeners and connections, and removes a temporary TLS folder.
    func stop() async {
        await server.stop()
        if let temporaryDirectory { try? FileManager.default.removeItem(atPath: temporaryDirectory) }
    }
}
