import WalletWatchCore
import WalletWatchNet

/// Reads a history from an Etherscan API V2 endpoint or a Blockscout's `/api`, which speaks the
/// same dialect (`module=account&action=txlist|txlistinternal|tokentx`).
///
/// Paging is by block: a request asks `startblock..endblock` sorted ascending, `offset` 1000
/// records; a full page starts the next request at its last block (that block's records come
/// again and are dropped as duplicates). Only when one block holds a whole page does it ask the
/// next `page` of the same window, and never past `page` x `offset` = 10,000, the explorers'
/// limit. Every value is a string; `status "0"` is either an empty answer ("No transactions
/// found", Blockscout's "No internal transactions found", "No token transfers found") or an
/// error whose `result` (Blockscout: `message`) is shown; "rate limit" answers are retried with
/// a growing pause.
struct EtherscanClient: Sendable {
    static let offset = 1000
    static let window = 10_000

    let requester: SourceRequester
    let chainID: Int64
    /// The chain as the user knows it (`ethereum (1)`), for messages.
    let chainName: String
    let apiKey: BearerToken?
    /// Pauses between rate-limited attempts: 0.5 s, 1 s, 2 s, 4 s.
    var retryDelays: [Duration] = [.milliseconds(500), .seconds(1), .seconds(2), .seconds(4)]

    init(source: String, url: String, chainID: Int64, chainName: String, apiKey: BearerToken?, http: any HTTPClient, route: NetworkRoute?) {
        requester = SourceRequester(source: source, baseURL: url, token: nil, http: http, route: route)
        self.chainID = chainID
        self.chainName = chainName
        self.apiKey = apiKey
    }

    /// The transactions, internal transfers and token transfers of `address` in `blocks`:
    /// `native` asks the first two; the third is always asked, for every token (those not in
    /// `tokens` are only noted as seen).
    func history(of address: EVMAddress, blocks: ClosedRange<Int64>, native: Bool, tokens: Set<EVMAddress>) async throws -> EVMHistoryFindings {
        do {
            return try await findings(of: address, blocks: blocks, native: native, tokens: tokens)
        } catch let error as EVMAnswerError {
            throw requester.failure("?module=account&address=\(address.lowercased)", error.description)
        }
    }

    private func findings(of address: EVMAddress, blocks: ClosedRange<Int64>, native: Bool, tokens: Set<EVMAddress>) async throws -> EVMHistoryFindings {
        var findings = EVMHistoryFindings()
        if native {
            for record in try await list("txlist", address: address, blocks: blocks, &findings) {
                let hash = try record["hash"].hash()
                let to = try record["to"].optionalAddress()
                findings.transactions[hash] = EVMTransactionRecord(
                    hash: hash, blockNumber: try record["blockNumber"].decimalInt64(), from: try record["from"].address(), to: to,
                    value: try record["value"].decimalString())
                findings.blockTimes[try record["blockNumber"].decimalInt64()] = try record["timeStamp"].decimalInt64()
            }
            var occurrences: [String: Int] = [:]
            for record in try await list("txlistinternal", address: address, blocks: blocks, &findings) {
                if case .string("1") = record["isError"].value { continue }
                let hash = try (record["hash"].isNull ? record["transactionHash"] : record["hash"]).hash()
                let from = try record["from"].address()
                guard let to = try record["to"].optionalAddress() else { continue }  // a contract creation
                let value = try record["value"].decimalString()
                let block = try record["blockNumber"].decimalInt64()
                let position: String
                if case .string(let trace) = record["traceId"].value { position = "trace:" + trace }
                else if case .string(let index) = record["index"].value { position = "trace:" + index }
                else {
                    let contents = "\(from.lowercased)>\(to.lowercased):\(value)"
                    occurrences[hash + contents, default: 0] += 1
                    position = contents + "#\(occurrences[hash + contents]!)"
                }
                findings.internals[EVMEventKey(hash: hash, position: position)] = EVMInternalTransfer(
                    hash: hash, blockNumber: block, from: from, to: to, value: value)
                findings.blockTimes[block] = try record["timeStamp"].decimalInt64()
            }
        }
        do {
            // Asked also when no watched token changed: the tokens seen but not watched are
            // what doctor lists (most are spam sent to the address).
            var occurrences: [String: Int] = [:]
            for record in try await list("tokentx", address: address, blocks: blocks, &findings) {
                let contract = try record["contractAddress"].address()
                guard tokens.contains(contract) else {
                    findings.unlistedTokens.insert(contract)
                    continue
                }
                let hash = try record["hash"].hash()
                let from = try record["from"].address()
                let to = try record["to"].address()
                let amount = try record["value"].decimalString()
                let block = try record["blockNumber"].decimalInt64()
                let position: String
                if case .string(let index) = record["logIndex"].value { position = "log:" + index } else {
                    // Etherscan's tokentx has no log index: the same transfer is told apart from an
                    // equal one in the same transaction by its occurrence.
                    let contents = "\(contract.lowercased):\(from.lowercased)>\(to.lowercased):\(amount)"
                    occurrences[hash + contents, default: 0] += 1
                    position = contents + "#\(occurrences[hash + contents]!)"
                }
                findings.tokenTransfers[EVMEventKey(hash: hash, position: position)] = EVMTokenTransfer(
                    hash: hash, blockNumber: block, contract: contract, from: from, to: to, amount: amount)
                findings.blockTimes[block] = try record["timeStamp"].decimalInt64()
            }
        }
        return findings
    }

    /// Every record of `action` for `address` in `blocks`, paged by block.
    private func list(_ action: String, address: EVMAddress, blocks: ClosedRange<Int64>, _ findings: inout EVMHistoryFindings) async throws -> [EVMValue] {
        var records: [EVMValue] = []
        var seen: Set<JSONValue> = []
        var start = blocks.lowerBound
        var page = 1
        while true {
            let path = query(action, address: address, from: start, to: blocks.upperBound, page: page)
            let answer = try await get(path)
            findings.requests += 1
            let rows = try decode(path, answer)
            var lastBlock = start
            for row in rows {
                lastBlock = try requester.decoded(path) { try Self.block(row) }
                if seen.insert(row.value).inserted { records.append(row) }
            }
            guard rows.count >= Self.offset else { return records }
            if lastBlock > start {
                start = lastBlock
                page = 1
            } else {
                // One block fills a whole page: the next page of the same window.
                page += 1
                guard page * Self.offset <= Self.window else {
                    throw requester.failure(path, "block \(start) holds more than \(Self.window) \(action) records, beyond what the explorer pages through")
                }
            }
        }
    }

    private static func block(_ row: EVMValue) throws -> Int64 {
        do { return try row["blockNumber"].decimalInt64() } catch let error as EVMAnswerError {
            throw JSONReadError(path: error.path, problem: error.problem)
        }
    }

    private func query(_ action: String, address: EVMAddress, from: Int64, to: Int64, page: Int) -> String {
        var items = ["chainid=\(chainID)", "module=account", "action=\(action)", "address=\(address.lowercased)",
                     "startblock=\(from)", "endblock=\(to)", "page=\(page)", "offset=\(Self.offset)", "sort=asc"]
        if let apiKey { items.append("apikey=\(apiKey.value)") }
        return "?" + items.joined(separator: "&")
    }

    /// GETs one answer, retrying a rate limit with a growing pause.
    private func get(_ path: String) async throws -> JSONValue {
        var attempt = 0
        while true {
            let answer = try await requester.get(path) { try $0.readValue() }
            guard case .string("0")? = answer["status"], Self.isRateLimit(answer), attempt < retryDelays.count else { return answer }
            try await Task.sleep(for: retryDelays[attempt])
            attempt += 1
        }
    }

    private static func isRateLimit(_ answer: JSONValue) -> Bool {
        ["result", "message"].contains { field in
            if case .string(let text)? = answer[field] { text.lowercased().contains("rate limit") } else { false }
        }
    }

    /// The records of one answer, or the error it holds.
    private func decode(_ path: String, _ answer: JSONValue) throws -> [EVMValue] {
        let status = answer["status"]
        let message: String? = if case .string(let text)? = answer["message"] { text } else { nil }
        if case .string("1")? = status {
            return try requester.decoded(path) {
                guard case .array(let rows)? = answer["result"] else {
                    throw JSONReadError(path: "result", problem: "expected an array of records")
                }
                return rows.enumerated().map { EVMValue($1, path: "result[\($0)]") }
            }
        }
        guard case .string("0")? = status else {
            throw requester.failure(path, "the answer has no status \"0\" or \"1\"; is history_url an Etherscan-compatible /api?")
        }
        if let message, Self.emptyMessages.contains(message) { return [] }
        var text: String
        if case .string(let result)? = answer["result"], !result.isEmpty { text = result } else { text = message ?? "no reason given" }
        text = DisplaySafety.escaped(text.count > 300 ? String(text.prefix(300)) + "…" : text)
        if text.lowercased().contains("rate limit") {
            throw requester.failure(path, "the explorer still refuses after \(retryDelays.count + 1) attempts: \(text) (the free tier allows 3 calls a second and 100,000 a day)")
        }
        if text.lowercased().contains("not supported for this chain") || text.lowercased().contains("unsupported chainid") {
            throw requester.failure(path, "the explorer does not serve chain \(chainName) to this API key: \(text)")
        }
        throw requester.failure(path, "the explorer answered an error: \(text)")
    }

    static let emptyMessages: Set<String> = ["No transactions found", "No internal transactions found", "No token transfers found"]
}
