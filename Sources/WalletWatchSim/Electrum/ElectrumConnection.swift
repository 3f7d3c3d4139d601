import NIOConcurrencyHelpers
import NIOCore

/// One client of the Electrum face: reads its lines, answers each call (with the fault drawn for
/// it, if any) in order, and notifies it of what it subscribed to whenever the chain changes.
/// Lines are JSON-RPC 2.0 requests or batches (a JSON array answered by one array).
final class ElectrumConnection: Sendable {
    let id: Int
    /// `tcp` or `tls`.
    let transport: String
    let state: SimulatorState
    let info: ElectrumServerInfo
    let session = NIOLockedValueBox(ElectrumSession())
    private let outgoing: AsyncStream<Outgoing>.Continuation
    private let queue: AsyncStream<Outgoing>

    /// What the writer sends: a line's bytes, or the end of the connection.
    enum Outgoing: Sendable {
        case bytes(ByteBuffer)
        case close
    }

    init(id: Int, transport: String, state: SimulatorState, info: ElectrumServerInfo) {
        self.id = id
        self.transport = transport
        self.state = state
        self.info = info
        (queue, outgoing) = AsyncStream<Outgoing>.makeStream()
    }

    /// Serves the connection until the client leaves, a fault closes it, or the task is cancelled.
    func run(_ channel: NIOAsyncChannel<ByteBuffer, ByteBuffer>) async {
        // Watching starts before the first call is read, so no change after a subscription is missed.
        let changes = await state.chainChanges()
        try? await channel.executeThenClose { inbound, outbound in
            await withTaskGroup(of: Void.self) { group in
                group.addTask { await self.read(inbound) }
                group.addTask { await self.notify(changes) }
                // The writer alone ends the connection, once it has written everything queued
                // before the reader's `.close`: the client left, a fault closed it (a `drop`
                // after some answers of a batch must still deliver them), or the simulator is
                // stopping. Waiting for whichever task ends first raced the reader's return
                // against the writer's last write.
                await self.write(to: outbound)
                group.cancelAll()
            }
        }
        outgoing.finish()
    }

    private func write(to outbound: NIOAsyncChannelOutboundWriter<ByteBuffer>) async {
        for await item in queue {
            guard case .bytes(let buffer) = item else { return }
            do { try await outbound.write(buffer) } catch { return }
        }
    }

    private func read(_ inbound: NIOAsyncChannelInboundStream<ByteBuffer>) async {
        var splitter = ElectrumLineSplitter()
        do {
            for try await buffer in inbound {
                for line in try splitter.split(buffer) {
                    guard await handle(line, write: splitter.reads) else {
                        outgoing.yield(.close)
                        return
                    }
                }
            }
        } catch {
            // A read error, a line beyond the limit, or a cancellation: the connection ends.
        }
        outgoing.yield(.close)
    }

    /// Sends `message` as a line of its own.
    func send(_ message: JSONValue) {
        outgoing.yield(.bytes(ElectrumWire.line(message)))
    }

    /// Sends raw bytes (they end with their own newline).
    func send(raw bytes: ByteBuffer) {
        outgoing.yield(.bytes(bytes))
    }

    // MARK: notifications

    private func notify(_ changes: AsyncStream<Void>) async {
        for await _ in changes {
            await sendNotifications()
        }
    }

    /// Tells the client of a new tip (when it subscribed to headers) and of every subscribed
    /// script whose status changed, the header first, as ElectrumX does.
    private func sendNotifications() async {
        let (headers, scripthashes) = session.withLockedValue { ($0.lastTipHash != nil, Array($0.statuses.keys)) }
        if headers {
            let tip = await state.electrumTip()
            let changed = session.withLockedValue { session in
                defer { session.lastTipHash = tip.hash }
                return session.lastTipHash != tip.hash
            }
            if changed { send(ElectrumWire.notification("blockchain.headers.subscribe", [ElectrumWire.header(tip.height, tip.header)])) }
        }
        guard !scripthashes.isEmpty else { return }
        let statuses = await state.electrumStatuses(scripthashes)
        for scripthash in scripthashes {
            let status = statuses[scripthash] ?? nil
            let changed = session.withLockedValue { session in
                guard let last = session.statuses[scripthash], last != status else { return false }
                session.statuses[scripthash] = status
                return true
            }
            if changed {
                send(ElectrumWire.notification("blockchain.scripthash.subscribe", [.string(scripthash), status.map(JSONValue.string) ?? .null]))
            }
        }
    }
}
