import NIOConcurrencyHelpers
import NIOCore
import NIOPosix
import NIOSSL

/// The Electrum face's two listeners, plain TCP and TLS, on SwiftNIO: each accepted connection is
/// an ``ElectrumConnection``. ``stop()`` closes the listeners and every open connection.
final class ElectrumServer: Sendable {
    /// The bound ports (the real ones when asked for port 0).
    let tcpPort: Int
    let tlsPort: Int
    private let listeners: [Channel]
    /// The open connections' channels, to close them at stop.
    private let connections: NIOLockedValueBox<[ObjectIdentifier: Channel]>
    private let serving: Task<Void, Never>

    private init(tcpPort: Int, tlsPort: Int, listeners: [Channel], connections: NIOLockedValueBox<[ObjectIdentifier: Channel]>,
                 serving: Task<Void, Never>) {
        self.tcpPort = tcpPort
        self.tlsPort = tlsPort
        self.listeners = listeners
        self.connections = connections
        self.serving = serving
    }

    /// Listens on `host:tcpPort` and `host:tlsPort` (0 picks free ports) and serves the chain of
    /// `state`, TLS with `identity`.
    static func start(state: SimulatorState, host: String, tcpPort: Int, tlsPort: Int, identity: TLSIdentity, genesisHash: String) async throws -> ElectrumServer {
        let tcp = try await bind(host: host, port: tcpPort, tls: nil)
        let tls: NIOAsyncChannel<NIOAsyncChannel<ByteBuffer, ByteBuffer>, Never>
        do {
            tls = try await bind(host: host, port: tlsPort, tls: identity.context)
        } catch {
            try? await tcp.channel.close()
            throw error
        }
        let info = ElectrumServerInfo(host: host, tcpPort: tcp.channel.localAddress?.port ?? tcpPort,
                                      tlsPort: tls.channel.localAddress?.port ?? tlsPort, genesisHash: genesisHash)
        let connections = NIOLockedValueBox<[ObjectIdentifier: Channel]>([:])
        let counter = NIOLockedValueBox(0)
        let serving = Task {
            await withDiscardingTaskGroup { group in
                for (listener, transport) in [(tcp, "tcp"), (tls, "tls")] {
                    group.addTask {
                        await accept(listener, transport: transport, state: state, info: info, connections: connections, counter: counter)
                    }
                }
            }
        }
        return ElectrumServer(tcpPort: info.tcpPort, tlsPort: info.tlsPort, listeners: [tcp.channel, tls.channel], connections: connections,
                              serving: serving)
    }

    /// Stops listening, closes every connection and waits until all are done.
    func stop() async {
        for listener in listeners { try? await listener.close() }
        for connection in connections.withLockedValue({ Array($0.values) }) { try? await connection.close() }
        serving.cancel()
        await serving.value
    }

    private static func bind(host: String, port: Int, tls: NIOSSLContext?) async throws -> NIOAsyncChannel<NIOAsyncChannel<ByteBuffer, ByteBuffer>, Never> {
        try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelOption(.socketOption(.tcp_nodelay), value: 1)
            .bind(host: host, port: port) { channel in
                channel.eventLoop.makeCompletedFuture {
                    if let tls { try channel.pipeline.syncOperations.addHandler(NIOSSLServerHandler(context: tls)) }
                    return try NIOAsyncChannel<ByteBuffer, ByteBuffer>(wrappingChannelSynchronously: channel)
                }
            }
    }

    private static func accept(
        _ listener: NIOAsyncChannel<NIOAsyncChannel<ByteBuffer, ByteBuffer>, Never>, transport: String, state: SimulatorState,
        info: ElectrumServerInfo, connections: NIOLockedValueBox<[ObjectIdentifier: Channel]>, counter: NIOLockedValueBox<Int>
    ) async {
        try? await listener.executeThenClose { inbound in
            try await withThrowingDiscardingTaskGroup { group in
                for try await client in inbound {
                    let key = ObjectIdentifier(client.channel)
                    connections.withLockedValue { $0[key] = client.channel }
                    let id = counter.withLockedValue { count in
                        count += 1
                        return count
                    }
                    group.addTask {
                        await ElectrumConnection(id: id, transport: transport, state: state, info: info).run(client)
                        connections.withLockedValue { $0[key] = nil }
                    }
                }
            }
        }
    }
}
