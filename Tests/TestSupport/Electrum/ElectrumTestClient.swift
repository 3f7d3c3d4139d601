import Foundation
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix
import NIOSSL

/// A raw Electrum protocol client for tests (not walletwatch's own): newline-delimited JSON-RPC
/// over TCP or TLS (`tcp://HOST:PORT`, `ssl://HOST:PORT`; TLS without verification, the test
/// reads the peer's certificate instead). It sends what it is told, exactly: calls, batches or
/// raw bytes; and reads lines as they come, as answers matched by id, as notifications, or raw.
///
/// ```swift
/// let client = try await ElectrumTestClient.connect(sim.electrumTCPURL)
/// _ = try await client.call("server.version", ["test", ["1.4", "1.6"]])
/// let status = try await client.call("blockchain.scripthash.subscribe", [scripthash]).result as? String
/// ```
public final class ElectrumTestClient: Sendable {
    private let channel: Channel
    private let inbox = ElectrumInbox()
    private let outgoing: AsyncStream<ByteBuffer>.Continuation
    private let connection: Task<Void, Never>
    private let ids = IDCounter()
    /// How long a read waits before it fails.
    public let timeout: Duration

    private init(channel: NIOAsyncChannel<ByteBuffer, ByteBuffer>, timeout: Duration) {
        self.channel = channel.channel
        self.timeout = timeout
        let (writes, outgoing) = AsyncStream<ByteBuffer>.makeStream()
        self.outgoing = outgoing
        let inbox = inbox
        connection = Task {
            try? await channel.executeThenClose { inbound, outbound in
                let writer = Task {
                    for await buffer in writes { try await outbound.write(buffer) }
                }
                var pending: [UInt8] = []
                do {
                    for try await buffer in inbound {
                        pending.append(contentsOf: buffer.readableBytesView)
                        while let end = pending.firstIndex(of: UInt8(ascii: "\n")) {
                            await inbox.append(Array(pending[..<end]))
                            pending.removeFirst(end + 1)
                        }
                    }
                } catch {}
                writer.cancel()
            }
            await inbox.close()
        }
    }

    /// Connects to `url` (`tcp://HOST:PORT` or `ssl://HOST:PORT`).
    public static func connect(_ url: String, timeout: Duration = .seconds(15)) async throws -> ElectrumTestClient {
        guard let parsed = URLComponents(string: url), let host = parsed.host, let port = parsed.port, ["tcp", "ssl"].contains(parsed.scheme) else {
            throw ElectrumTestError("not an Electrum URL: \(url)")
        }
        let tls: NIOSSLContext? = try parsed.scheme == "ssl" ? {
            var configuration = TLSConfiguration.makeClientConfiguration()
            configuration.certificateVerification = .none
            return try NIOSSLContext(configuration: configuration)
        }() : nil
        let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .connectTimeout(.seconds(5))
            .connect(host: host, port: port) { channel in
                channel.eventLoop.makeCompletedFuture {
                    if let tls { try channel.pipeline.syncOperations.addHandler(try NIOSSLClientHandler(context: tls, serverHostname: nil)) }
                    return try NIOAsyncChannel<ByteBuffer, ByteBuffer>(wrappingChannelSynchronously: channel)
                }
            }
        return ElectrumTestClient(channel: channel, timeout: timeout)
    }

    /// Sends `text` as it is (add the newlines yourself): several lines in one write, a partial
    /// line, garbage.
    public func send(raw text: String) async throws {
        outgoing.yield(ByteBuffer(string: text))
    }

    /// Calls `method` and waits for its answer (matched by id; notifications and other lines
    /// stay readable).
    public func call(_ method: String, _ params: [Any] = []) async throws -> ElectrumReply {
        let id = ids.next()
        try await send(raw: try Self.request(method, params, id: id) + "\n")
        return try await answer(id: id)
    }

    /// Sends `calls` as one JSON-RPC batch (one line, one write) and returns the batch's answer
    /// (one array), its elements matched to the calls by id and returned in call order
    /// (JSON-RPC lets a server answer a batch in any order, and ElectrumX does). A batch
    /// answered in part fails.
    public func batch(_ calls: [(String, [Any])]) async throws -> [ElectrumReply] {
        let first = ids.next(count: calls.count)
        let ids = first..<(first + calls.count)
        let lines = try calls.enumerated().map { try Self.request($0.element.0, $0.element.1, id: first + $0.offset) }
        try await send(raw: "[" + lines.joined(separator: ",") + "]\n")
        let line = try await inbox.take(within: timeout) { line in
            guard let array = line.json as? [[String: Any]] else { return false }
            return array.contains { ($0["id"] as? Int).map(ids.contains) ?? false }
        }
        let answers = (line.json as? [[String: Any]] ?? []).map { ElectrumReply(json: $0, text: ElectrumReply.canonical($0)) }
        let byID = Dictionary(answers.map { (($0.json as? [String: Any])?["id"] as? Int ?? -1, $0) }) { first, _ in first }
        return try ids.map { id in
            guard let answer = byID[id] else { throw ElectrumTestError("the batch's answer has no element for id \(id): \(line.text.prefix(300))") }
            return answer
        }
    }

    /// Sends `calls` as separate lines in one write and returns their answers in call order.
    public func pipeline(_ calls: [(String, [Any])]) async throws -> [ElectrumReply] {
        let first = ids.next(count: calls.count)
        let lines = try calls.enumerated().map { try Self.request($0.element.0, $0.element.1, id: first + $0.offset) + "\n" }
        try await send(raw: lines.joined())
        var replies: [ElectrumReply] = []
        for offset in calls.indices { replies.append(try await answer(id: first + offset)) }
        return replies
    }

    /// The answer with this id.
    public func answer(id: Int) async throws -> ElectrumReply {
        let line = try await inbox.take(within: timeout) { ($0.json as? [String: Any])?["id"] as? Int == id }
        return ElectrumReply(json: line.json ?? NSNull(), text: line.text)
    }

    /// The next notification of `method` (its params), or nil when none comes within `timeout`;
    /// with `first`, the next whose first param is that (a scripthash's).
    public func notification(_ method: String, first: String? = nil, within timeout: Duration? = nil) async throws -> [Any]? {
        do {
            let line = try await inbox.take(within: timeout ?? self.timeout) { line in
                guard let object = line.json as? [String: Any], object["id"] == nil, object["method"] as? String == method else { return false }
                return first.map { (object["params"] as? [Any])?.first as? String == $0 } ?? true
            }
            return (line.json as? [String: Any])?["params"] as? [Any]
        } catch is ElectrumTestTimeout {
            return nil
        }
    }

    /// The next line not read yet, as bytes (without its newline); nil once the server closed
    /// the connection and every line was read.
    public func nextLine(within timeout: Duration? = nil) async throws -> [UInt8]? {
        try await inbox.next(within: timeout ?? self.timeout)
    }

    /// Whether the server closed the connection (waits up to `timeout` for it).
    public func isClosed(within timeout: Duration) async -> Bool {
        await inbox.waitClosed(within: timeout)
    }

    /// The server's TLS certificate (DER), once a round trip has completed the handshake.
    public func peerCertificate() async throws -> [UInt8]? {
        try await channel.nioSSL_peerCertificate().get()?.toDERBytes()
    }

    /// Closes the connection.
    public func close() async {
        outgoing.finish()
        try? await channel.close()
        await connection.value
    }

    private static func request(_ method: String, _ params: [Any], id: Int) throws -> String {
        let object: [String: Any] = ["jsonrpc": "2.0", "method": method, "params": params, "id": id]
        return String(decoding: try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes]), as: UTF8.self)
    }
}

/// An answer of an Electrum server: the whole message, and its canonical text (sorted keys) for
/// comparing two servers' answers.
public struct ElectrumReply: @unchecked Sendable, CustomStringConvertible {
    /// The decoded message.
    public let json: Any
    /// The message as canonical JSON.
    public let text: String

    /// `result`, when the answer has one (NSNull for a JSON null).
    public var result: Any? { (json as? [String: Any])?["result"] }

    /// The error object's code and message, when the answer is an error.
    public var error: (code: Int, message: String)? {
        guard let error = (json as? [String: Any])?["error"] as? [String: Any], let code = error["code"] as? Int else { return nil }
        return (code, error["message"] as? String ?? "")
    }

    /// `result` as canonical JSON ("null" when absent).
    public var resultText: String { ElectrumReply.canonical(result ?? NSNull()) }

    public var description: String { text }

    /// `value` as JSON with sorted keys.
    public static func canonical(_ value: Any) -> String {
        guard let data = try? JSONSerialization.data(withJSONObject: value, options: [.sortedKeys, .fragmentsAllowed, .withoutEscapingSlashes]) else {
            return "\(value)"
        }
        return String(decoding: data, as: UTF8.self)
    }
}

/// A read that waited longer than its timeout.
public struct ElectrumTestTimeout: Error, CustomStringConvertible {
    public let description: String
}

/// What went wrong in the test client.
public struct ElectrumTestError: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}

/// Request ids, from 1.
private final class IDCounter: Sendable {
    private let value = NIOLockedValueBox(0)

    func next(count: Int = 1) -> Int {
        value.withLockedValue { value in
            defer { value += count }
            return value + 1
        }
    }
}
