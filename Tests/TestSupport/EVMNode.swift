import Foundation
import NIOCore
import NIOPosix

/// A real EVM chain for tests: py-evm through eth-tester (installed by `scripts/setup` in
/// `.build/python-evm`), served by `Tests/Support/evm/evm_node.py` on a free port of 127.0.0.1:
/// Ethereum JSON-RPC as geth answers it (single requests and batches), Erigon's `ots_`
/// namespace, Etherscan's API V2 at `/v2/api` and Blockscout's at `/api`, all computed from the
/// chain, and `test_` control methods that build a scenario (accounts, transfers, vyper-compiled
/// ERC-20 tokens, failed transactions, internal transfers, mining, time, finality, reorgs, fault
/// switches); `Tests/Support/evm/README.md` lists them. The node's output is kept for failure
/// messages; ``stop()`` ends it (SIGTERM, SIGKILL after a grace period), dropping it kills it, and
/// it ends itself when the test process goes.
///
/// ```swift
/// let node = try await EVMNode.start(chainID: 1, finalityDepth: 2)
/// let alice = try await node.control("newAccount", ["seed": "alice"])["address"] as! String
/// _ = try await node.control("fund", ["to": alice, "value": "1000000000000000000"])
/// let balance = try await node.call("eth_getBalance", [alice, "latest"]).result as? String
/// await node.stop()
/// ```
public final class EVMNode: Sendable {
    /// The port it listens on.
    public let port: Int
    /// The chain id it was started with (`eth_chainId` answers it unless a fault says otherwise).
    public let chainID: Int
    private let process: BackgroundProcess
    private let folder: TemporaryDirectory

    /// `http://127.0.0.1:PORT`: the JSON-RPC endpoint (an `evm` source's `url`).
    public var url: String { "http://127.0.0.1:\(port)" }
    /// Etherscan's API V2 dialect (an `evm` source's `history_url` with `history = "etherscan"`).
    public var etherscanURL: String { url + "/v2/api" }
    /// Blockscout's Etherscan-compatible dialect.
    public var blockscoutURL: String { url + "/api" }

    /// What the node printed so far (its log goes to stderr).
    public var log: String { process.stdout + process.stderr }

    /// Whether it is still running.
    public var isRunning: Bool { process.isRunning }

    private init(port: Int, chainID: Int, process: BackgroundProcess, folder: TemporaryDirectory) {
        self.port = port
        self.chainID = chainID
        self.process = process
        self.folder = folder
    }

    private static var packageRoot: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    }

    /// `.build/python-evm/bin/python` of this package, where `scripts/setup` installs the EVM stack.
    public static var pythonPath: String { packageRoot.appendingPathComponent(".build/python-evm/bin/python").path }

    /// The node's script.
    public static var scriptPath: String { packageRoot.appendingPathComponent("Tests/Support/evm/evm_node.py").path }

    /// Whether `scripts/setup` has installed the EVM stack.
    public static var isInstalled: Bool {
        FileManager.default.isExecutableFile(atPath: pythonPath) && FileManager.default.fileExists(atPath: scriptPath)
    }

    /// Starts a node with a fresh chain (ten genesis accounts of a million ether; the first is the
    /// faucet) and returns once it listens. `finalityDepth`: the `finalized` block is that many
    /// blocks below the latest (0: eth-tester's own answer, finalized is latest). `blockTime`:
    /// seconds between block timestamps, counted from `genesisTimestamp` (nil: the wall clock).
    public static func start(
        chainID: Int = 1337, finalityDepth: Int = 0, blockTime: Int? = nil, genesisTimestamp: Int? = nil, arguments: [String] = [],
        within timeout: Duration = .seconds(60)
    ) async throws -> EVMNode {
        guard isInstalled else {
            throw EVMNodeError("the EVM test stack is not installed at \(pythonPath): run scripts/setup (it installs eth-tester, py-evm, web3 and vyper into .build/python-evm)")
        }
        let folder = TemporaryDirectory("walletwatch-evm")
        var options = ["--chain-id", String(chainID), "--finality-depth", String(finalityDepth), "--exit-with-parent"]
        if let blockTime { options += ["--block-time", String(blockTime)] }
        if let genesisTimestamp { options += ["--genesis-timestamp", String(genesisTimestamp)] }
        let environment = [
            "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin", "HOME": folder.path,
            // No __pycache__ beside the node's sources in the package.
            "PYTHONDONTWRITEBYTECODE": "1",
        ]
        let process = try BackgroundProcess(pythonPath, [scriptPath] + options + arguments, environment: environment, currentDirectory: folder.path)
        // The first line on stdout is the port, printed once the node listens.
        let deadline = ContinuousClock.now + timeout
        while true {
            let output = process.stdout
            if let end = output.firstIndex(of: "\n") {
                guard let port = Int(output[..<end]) else {
                    process.send(SIGKILL)
                    throw EVMNodeError("the EVM node's first line is not a port: \(output.prefix(200))\n\(process.stderr)")
                }
                return EVMNode(port: port, chainID: chainID, process: process, folder: folder)
            }
            guard process.isRunning else { throw EVMNodeError("the EVM node exited before listening:\n\(process.stderr)") }
            guard ContinuousClock.now < deadline else {
                process.send(SIGKILL)
                throw EVMNodeError("the EVM node did not listen within \(timeout):\n\(process.stderr)")
            }
            try await Task.sleep(for: .milliseconds(20))
        }
    }

    /// Calls the control method `test_<method>` (the prefix may be given) with its named
    /// parameters; amounts go as decimal strings to stay exact. Throws with the node's message
    /// when it refuses.
    public func control(_ method: String, _ params: [String: Any] = [:], timeout: Duration = .seconds(120)) async throws -> EVMReply {
        let name = method.hasPrefix("test_") ? method : "test_" + method
        let reply = try await call(name, [params], timeout: timeout)
        if let error = reply.error { throw EVMNodeError("\(name) failed: \(error.message) (\(error.code))") }
        return reply
    }

    /// One JSON-RPC call, answered as it came (a result or an error object).
    public func call(_ method: String, _ params: [Any] = [], timeout: Duration = .seconds(30)) async throws -> EVMReply {
        let request: [String: Any] = ["jsonrpc": "2.0", "id": 1, "method": method, "params": params]
        let body = try JSONSerialization.data(withJSONObject: request, options: [.withoutEscapingSlashes])
        let answer = try await post(Array(body), timeout: timeout)
        guard let json = try? JSONSerialization.jsonObject(with: Data(answer), options: [.fragmentsAllowed]) else {
            throw EVMNodeError("\(method): the node's answer is not JSON: \(String(decoding: answer.prefix(300), as: UTF8.self))")
        }
        return EVMReply(json: json)
    }

    /// POSTs `body` (any bytes: a batch, malformed JSON) to the JSON-RPC endpoint and returns the
    /// answer's body; throws when the HTTP status is not 200.
    public func post(_ body: [UInt8], timeout: Duration = .seconds(30)) async throws -> [UInt8] {
        let head = "POST / HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nContent-Type: application/json\r\nContent-Length: \(body.count)\r\n"
            + "Connection: close\r\n\r\n"
        let response = try await exchange(Array(head.utf8) + body, timeout: timeout)
        guard response.status == 200 else {
            throw EVMNodeError("HTTP \(response.status) from the EVM node: \(String(decoding: response.body.prefix(300), as: UTF8.self))")
        }
        return response.body
    }

    /// GETs `pathAndQuery` (e.g. `/v2/api?chainid=1&module=account&...`) and returns its JSON
    /// (an explorer's answer: `json["status"]`, `json["message"]`, and `result`).
    public func get(_ pathAndQuery: String, timeout: Duration = .seconds(30)) async throws -> EVMReply {
        let head = "GET \(pathAndQuery) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\n\r\n"
        let response = try await exchange(Array(head.utf8), timeout: timeout)
        guard let json = try? JSONSerialization.jsonObject(with: Data(response.body), options: [.fragmentsAllowed]) else {
            throw EVMNodeError("GET \(pathAndQuery): HTTP \(response.status), not JSON: \(String(decoding: response.body.prefix(300), as: UTF8.self))")
        }
        return EVMReply(json: json)
    }

    /// Sends one HTTP/1.1 request on a new connection (`Connection: close`) and reads the answer
    /// until the node closes it.
    private func exchange(_ request: [UInt8], timeout: Duration) async throws -> (status: Int, body: [UInt8]) {
        let port = port
        let received = try await withThrowingTaskGroup(of: [UInt8]?.self) { group in
            group.addTask {
                let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
                    .connectTimeout(.seconds(5))
                    .connect(host: "127.0.0.1", port: port) { channel in
                        channel.eventLoop.makeCompletedFuture { try NIOAsyncChannel<ByteBuffer, ByteBuffer>(wrappingChannelSynchronously: channel) }
                    }
                return try await channel.executeThenClose { inbound, outbound in
                    try await outbound.write(ByteBuffer(bytes: request))
                    var bytes: [UInt8] = []
                    for try await buffer in inbound { bytes.append(contentsOf: buffer.readableBytesView) }
                    return bytes
                }
            }
            group.addTask {
                try await Task.sleep(for: timeout)
                return nil
            }
            let first = try await group.next() ?? nil
            group.cancelAll()
            return first
        }
        guard let received else { throw EVMNodeError("the EVM node did not answer within \(timeout)") }
        let separator: [UInt8] = Array("\r\n\r\n".utf8)
        guard let split = received.indices.first(where: { received[$0...].starts(with: separator) }) else {
            throw EVMNodeError("not an HTTP answer: \(String(decoding: received.prefix(200), as: UTF8.self))")
        }
        let statusLine = String(decoding: received[..<split], as: UTF8.self).split(separator: "\r\n").first ?? ""
        let parts = statusLine.split(separator: " ")
        guard parts.count >= 2, let status = Int(parts[1]) else { throw EVMNodeError("no HTTP status in \(statusLine)") }
        return (status, Array(received[(split + separator.count)...]))
    }

    /// Stops it: SIGTERM, then SIGKILL after `grace`; returns once it has exited.
    public func stop(grace: Duration = .seconds(5)) async {
        guard process.isRunning else { return }
        process.send(SIGTERM)
        // Polled: BackgroundProcess's exit stream can be awaited once.
        if await !eventually(within: grace, { !process.isRunning }) {
            process.send(SIGKILL)
            _ = await eventually(within: .seconds(5)) { !process.isRunning }
        }
    }
}

/// An answer of the EVM node: the whole JSON-RPC object (or an explorer's answer, whose
/// `status`, `message` and `result` read the same way).
public struct EVMReply: @unchecked Sendable, CustomStringConvertible {
    /// The decoded answer.
    public let json: Any

    /// A top-level field of the answer (an explorer's `status` or `message`).
    public func field(_ name: String) -> Any? { (json as? [String: Any])?[name] }

    /// `result` (NSNull for a JSON null), or nil for an error answer.
    public var result: Any? { (json as? [String: Any])?["result"] }

    /// A field of an object `result`.
    public subscript(key: String) -> Any? { (result as? [String: Any])?[key] }

    /// The error object's code and message, when the answer is an error.
    public var error: (code: Int, message: String)? {
        guard let error = (json as? [String: Any])?["error"] as? [String: Any], let code = error["code"] as? Int else { return nil }
        return (code, error["message"] as? String ?? "")
    }

    public var description: String {
        guard let data = try? JSONSerialization.data(withJSONObject: json, options: [.sortedKeys, .fragmentsAllowed, .withoutEscapingSlashes]) else {
            return "\(json)"
        }
        return String(decoding: data, as: UTF8.self)
    }
}

/// The EVM node could not be started or answered badly.
public struct EVMNodeError: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}
