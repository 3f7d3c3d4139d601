/// The byte stream an Electrum connection runs over: in production WalletWatchNet's libcurl
/// stream (TCP or TLS, direct or through a proxy), adapted by the engine.
public protocol ElectrumTransport: AnyObject, Sendable {
    /// Hands all of `bytes` to the connection (writes from several tasks never interleave).
    func write(_ bytes: [UInt8]) async throws
    /// What arrived, at most `maxBytes`, waiting until something does; empty once the server
    /// closed the connection.
    func read(maxBytes: Int) async throws -> [UInt8]
    /// Closes the connection; pending and later reads and writes fail.
    func close()
}
