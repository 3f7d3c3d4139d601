/// A real chain's Electrum and Core faces in Swift: where they listen, their faults and the
/// Electrum face's request log. The accessors need a scenario with a `bitcoin` section.
extension Simulator {
    /// `tcp://127.0.0.1:PORT`, the Electrum face without TLS.
    public var electrumTCPURL: String { requireEndpoints().electrumTCP }

    /// `ssl://127.0.0.1:PORT`, the Electrum face over TLS.
    public var electrumTLSURL: String { requireEndpoints().electrumTLS }

    /// Lowercase hex SHA-256 of the TLS certificate's DER bytes (`certificate_sha256`).
    public var certificateSHA256: String { requireEndpoints().certificateSHA256 }

    /// The TLS certificate's PEM file (ElectrumX's `SSL_CERTFILE`).
    public var certificatePath: String { requireEndpoints().certificatePath }

    /// The TLS key's PEM file (ElectrumX's `SSL_KEYFILE`).
    public var keyPath: String { requireEndpoints().keyPath }

    /// `http://USER:PASSWORD@127.0.0.1:PORT/bitcoind/`, the Core face (ElectrumX's `DAEMON_URL`).
    public var coreRPCURL: String { requireEndpoints().coreRPC }

    /// Adds a fault on the Electrum face; faults are tried in the order added.
    public func addElectrumFault(_ fault: ElectrumFault) async throws {
        try await state.addElectrumFault(fault)
    }

    /// Adds a fault on the Electrum calls of `method` (exact, a prefix ending in `*`, or `*`).
    public func addElectrumFault(_ kind: ElectrumFaultKind, on method: String, times: Int? = nil) async throws {
        try await state.addElectrumFault(ElectrumFault(kind, on: method, times: times))
    }

    /// Removes every Electrum fault.
    public func clearElectrumFaults() async {
        await state.clearElectrumFaults()
    }

    /// Every Electrum call since start or the last reset, oldest first.
    public func electrumRequests() async -> [ElectrumRequestRecord] {
        await state.electrumLog
    }

    /// Empties the Electrum request log.
    public func resetElectrumRequests() async {
        await state.resetElectrumRequests()
    }

    private func requireEndpoints() -> BitcoinEndpoints {
        guard let endpoints else {
            preconditionFailure("the simulator serves Electrum only for a real chain: give the scenario a bitcoin section")
        }
        return endpoints
    }
}
