import Foundation
import TestSupport
import Testing
@testable import WalletWatchSim

/// The same scenario played on the real EVM test node (py-evm) and on the simulator: each step
/// sent to both, the node's gas used given to the simulator (the one figure it cannot compute,
/// having no EVM), and every hash of the simulator mapped to the node's, so that answers can be
/// compared value by value.
final class EVMTwin: @unchecked Sendable {
    let node: EVMNode
    let sim: Simulator
    /// Simulator hash -> node hash (transactions and blocks).
    private(set) var hashes: [String: String] = [:]
    /// Names -> lower-case addresses, the same on both.
    private(set) var addresses: [String: String] = ["faucet": EVMChain.faucetAddress.hex]
    /// Every transaction hash mined or waiting on the node, in order.
    private(set) var transactions: [String] = []

    init(node: EVMNode, sim: Simulator) {
        self.node = node
        self.sim = sim
    }

    func account(_ name: String) async throws {
        let address = try #require(try await node.control("newAccount", ["seed": name])["address"] as? String).lowercased()
        try await sim.addEVMAccount(name, address: EVMAddress(address))
        addresses[name] = address
    }

    /// Sends a step to both: `method` with `params` to the node's control API, `spec` (with the
    /// node's gas used) to the simulator; checks that status and fee agree.
    @discardableResult
    func step(_ method: String, _ params: [String: Any], _ spec: EVMTransactionSpec, mined: Bool = true) async throws -> (node: EVMReply, sim: EVMSentTransaction) {
        let reply = try await node.control(method, params)
        var spec = spec
        if mined { spec.gasUsed = Int(try #require(reply["gasUsed"] as? String)) } else { spec.mine = false }
        let sent = try await sim.sendEVM(spec)
        let hash = try #require(reply["hash"] as? String)
        hashes[sent.hash] = hash
        transactions.append(hash)
        if mined {
            #expect(reply["status"] as? Int == sent.status, "\(method): status")
            #expect(reply["fee"] as? String == sent.fee?.description, "\(method): fee (gas used x effective gas price)")
            #expect(reply["blockNumber"] as? Int == sent.blockNumber, "\(method): block")
        }
        return (reply, sent)
    }

    /// Records a transaction sent to each directly (not through ``step(_:_:_:mined:)``).
    func record(sim: String, node: String) throws {
        hashes[sim] = node
        transactions.append(node)
    }

    /// Maps every block of both chains by height (after mining or a reorg).
    func mapBlocks() async throws {
        let tip = try await sim.evmSummary().tipHeight
        let nodeTip = try #require(Int((try await node.call("eth_blockNumber").result as? String ?? "").dropFirst(2), radix: 16))
        #expect(tip == nodeTip, "both chains are \(nodeTip) blocks high")
        for number in 0...tip {
            let ours = try #require(try await EVMFixture.result(sim, "eth_getBlockByNumber", [EVMHex.quantity(number), false]) as? [String: Any])
            let theirs = try #require(try await node.call("eth_getBlockByNumber", [EVMHex.quantity(number), false]).result as? [String: Any])
            hashes[try #require(ours["hash"] as? String)] = try #require(theirs["hash"] as? String)
        }
    }

    /// The node's hash for a simulator's hash (itself when unknown).
    func nodeHash(_ simHash: String) -> String { hashes[simHash] ?? simHash }

    /// `text` with every simulator hash in it replaced by the node's (an error message naming a
    /// transaction, as `transaction 0x... not found`).
    func nodeText(_ text: String) -> String {
        if let hash = hashes[text] { return hash }
        guard text.utf8.count > 66, text.contains("0x") else { return text }
        return hashes.reduce(text) { $1.key.count == 66 && $0.contains($1.key) ? $0.replacingOccurrences(of: $1.key, with: $1.value) : $0 }
    }

    /// The simulator's hash for a node's hash.
    func simHash(_ nodeHash: String) -> String { hashes.first { $0.value == nodeHash }?.key ?? nodeHash }

    // MARK: asking both

    /// POSTs the same JSON-RPC calls to both as one batch; returns the answers in order.
    func batch(_ calls: [(String, [Any])], simParams: ((Int) -> [Any])? = nil) async throws -> [(node: OrderedJSON, sim: OrderedJSON)] {
        func body(_ params: (Int) -> [Any]) throws -> [UInt8] {
            let requests = calls.enumerated().map { ["jsonrpc": "2.0", "id": $0.offset + 1, "method": $0.element.0, "params": params($0.offset)] as [String: Any] }
            return Array(try JSONSerialization.data(withJSONObject: requests, options: [.withoutEscapingSlashes]))
        }
        let nodeAnswer = try await HTTPProbe.send("POST", node.url, headers: ["Content-Type": "application/json"], body: try body { calls[$0].1 })
        let simAnswer = try await EVMFixture.post(sim, try body(simParams ?? { calls[$0].1 }))
        let theirs = try #require(OrderedJSON.parse(nodeAnswer.body)?.array, "node: \(nodeAnswer.text.prefix(300))")
        let ours = try #require(OrderedJSON.parse(simAnswer.body)?.array, "simulator: \(simAnswer.text.prefix(300))")
        #expect(theirs.count == calls.count && ours.count == calls.count)
        return zip(theirs, ours).map { ($0, $1) }
    }

    /// The same explorer query to both (`/v2/api` or `/api` on the node).
    func explorer(_ dialect: EVMFace.Dialect, _ query: String) async throws -> (node: OrderedJSON, sim: OrderedJSON) {
        let nodePath = dialect == .etherscan ? "/v2/api" : "/api"
        let simURL = dialect == .etherscan ? sim.etherscanURL : sim.blockscoutURL
        let theirs = try await HTTPProbe.get(node.url + nodePath + "?" + query), ours = try await HTTPProbe.get(simURL + "?" + query)
        return (try #require(OrderedJSON.parse(theirs.body), "node: \(theirs.text.prefix(300))"),
                try #require(OrderedJSON.parse(ours.body), "simulator: \(ours.text.prefix(300))"))
    }
}

/// Compares two answers in kind and in value, the simulator's hashes first mapped to the node's.
/// Objects must have the same keys in the same order; arrays the same elements in the same order;
/// strings, numbers, booleans and nulls the same value, except where the simulator cannot match
/// a real chain (signatures, roots, blooms, sizes, contract bytecode): there the kind must match
/// (a quantity, or data of the same length).
struct EVMAnswerComparison {
    let twin: EVMTwin
    private(set) var differences: [String] = []
    private(set) var compared = 0

    init(_ twin: EVMTwin) {
        self.twin = twin
    }

    /// Values a signature or a computation the simulator does not make: quantities.
    static let quantityOnly: Set<String> = ["r", "s", "v", "yParity", "size"]
    /// Roots and blooms: data of the same length.
    static let dataOnly: Set<String> = ["stateRoot", "receiptsRoot", "transactionsRoot", "mixHash", "logsBloom"]
    /// What geth writes for a mempool transaction and the test node leaves out.
    static let pendingExtras: Set<String> = ["accessList", "chainId", "v", "r", "s", "yParity"]

    /// Compares a pair of answers; with `bytecode`, their JSON-RPC results are contract code,
    /// compared in kind (data, or `0x` for none).
    mutating func compare(_ what: String, _ pair: (node: OrderedJSON, sim: OrderedJSON), bytecode: Bool = false) {
        compared += 1
        if bytecode, let theirs = pair.node["result"], let ours = pair.sim["result"] {
            walk(what + ".result", theirs, ours, bytecode: true)
        } else {
            walk(what, pair.node, pair.sim)
        }
    }

    private mutating func differ(_ path: String, _ node: OrderedJSON, _ sim: OrderedJSON) {
        differences.append("\(path): node \(node.description.prefix(300)) / simulator \(sim.description.prefix(300))")
    }

    private mutating func walk(_ path: String, _ node: OrderedJSON, _ sim: OrderedJSON, bytecode: Bool = false) {
        switch (node, sim) {
        case (.object(let theirs), .object(let ours)):
            // A JSON-RPC error for bad params: the code must agree, the wording is each server's.
            if node["code"] == .number("-32602"), sim["code"] == .number("-32602") { return }
            var ourKeys = ours.map(\.key)
            if node["blockHash"] == .null, node["transactionIndex"] == .null {
                ourKeys.removeAll { Self.pendingExtras.contains($0) && !theirs.map(\.key).contains($0) }
            }
            guard theirs.map(\.key) == ourKeys else {
                differences.append("\(path): keys: node \(theirs.map(\.key)) / simulator \(ours.map(\.key))")
                return
            }
            // A creation's input is its contract's bytecode, which the simulator does not have.
            let creation = node["to"] == .null || node["to"] == .string("")
            for (key, value) in theirs {
                guard let mine = sim[key] else { continue }
                let keyPath = path + "." + key
                if Self.quantityOnly.contains(key) {
                    if !(Self.isQuantity(value) && Self.isQuantity(mine)) { differ(keyPath, value, mine) }
                } else if Self.dataOnly.contains(key) || (creation && (key == "input" || key == "methodId")) {
                    if Self.dataLength(value) == nil || (key != "input" && Self.dataLength(value) != Self.dataLength(mine)) || Self.dataLength(mine) == nil {
                        differ(keyPath, value, mine)
                    }
                } else {
                    walk(keyPath, value, mine, bytecode: bytecode)
                }
            }
        case (.array(let theirs), .array(let ours)):
            guard theirs.count == ours.count else {
                differences.append("\(path): \(theirs.count) elements on the node, \(ours.count) on the simulator")
                return
            }
            for (index, pair) in zip(theirs, ours).enumerated() { walk("\(path)[\(index)]", pair.0, pair.1, bytecode: bytecode) }
        case (.string(let theirs), .string(let ours)):
            if bytecode {
                if Self.dataLength(node) == nil || Self.dataLength(sim) == nil || (theirs == "0x") != (ours == "0x") { differ(path, node, sim) }
            } else if theirs != twin.nodeText(ours) {
                differ(path, node, sim)
            }
        default:
            if node != sim { differ(path, node, sim) }
        }
    }

    static func isQuantity(_ value: OrderedJSON) -> Bool {
        guard case .string(let text) = value, text.hasPrefix("0x") else { return false }
        let digits = text.dropFirst(2)
        return digits == "0" || (!digits.isEmpty && digits.first != "0" && digits.allSatisfy { "0123456789abcdef".contains($0) })
    }

    static func dataLength(_ value: OrderedJSON) -> Int? {
        guard case .string(let text) = value, text.hasPrefix("0x"), text.count % 2 == 0,
              text.dropFirst(2).allSatisfy({ "0123456789abcdef".contains($0) }) else { return nil }
        return text.count / 2 - 1
    }
}
