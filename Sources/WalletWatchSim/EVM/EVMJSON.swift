/// The JSON-RPC objects of the EVM face, written as geth writes them (the test node's
/// `evmrpc.py` mirrors the same fields and order): blocks and receipts with their keys in
/// alphabetical order (geth marshals them from maps), transactions and logs in their structs'
/// order, quantities as `0x` hex without leading zeros, data and addresses in lower case, `null`
/// for what does not exist.
enum EVMJSON {
    /// Roots the simulator does not compute: the empty trie's root (Keccak-256 of RLP of an
    /// empty string) where a block has nothing, and SHA-256 of the contents otherwise (not
    /// Ethereum-valid).
    static let emptyTrieRoot = "0x56e81f171bcc55a6ff8345e692c0f86e5b48e01b996cadc001622fb5e363b421"
    /// Keccak-256 of RLP of an empty list: a block without uncles.
    static let emptyUnclesHash = "0x1dcc4de8dec75d7aab85b567b6ccd41ad312451b948a7413f0a142fd40d49347"
    /// SHA-256 of nothing: EIP-7685's requests hash of a block without requests.
    static let emptyRequestsHash = "0xe3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
    /// A bloom filter of nothing, and one that matches everything: the simulator does not hash
    /// logs into blooms (Keccak-256), so a block or receipt with logs says "may hold any",
    /// which is never wrong for a filter that may give false positives.
    static let emptyBloom = "0x" + String(repeating: "0", count: 512)
    static let fullBloom = "0x" + String(repeating: "f", count: 512)

    static func quantity(_ value: some BinaryInteger) -> JSONValue { .string(EVMHex.quantity(value)) }

    static func object(_ members: [(String, JSONValue)]) -> JSONValue { .object(members.map { JSONValue.Member($0.0, $0.1) }) }

    /// `eth_getBlockByNumber`/`ByHash`: with `full`, the transactions as objects, else their hashes.
    static func block(_ block: EVMBlock, full: Bool, chainID: Int) -> JSONValue {
        let empty = block.transactions.isEmpty
        let contents = block.transactions.map(\.hash.hex)
        let transactions: JSONValue = full
            ? .array(block.transactions.map { transaction($0, in: block, chainID: chainID) })
            : .array(contents.map { .string($0) })
        return object([
            ("baseFeePerGas", quantity(block.baseFeePerGas)),
            ("blobGasUsed", quantity(0)),
            ("difficulty", quantity(0)),
            ("excessBlobGas", quantity(0)),
            ("extraData", .string("0x")),
            ("gasLimit", quantity(EVMBlock.gasLimit)),
            ("gasUsed", quantity(block.gasUsed)),
            ("hash", .string(block.hash.hex)),
            ("logsBloom", .string(block.logCount == 0 ? emptyBloom : fullBloom)),
            ("miner", .string(EVMAddress.zero.hex)),
            // After the merge the beacon chain's randomness; genesis has none.
            ("mixHash", .string(block.number == 0 ? EVMHash.zero.hex : EVMHash(hashing: ["mix", block.hash.hex]).hex)),
            ("nonce", .string("0x0000000000000000")),
            ("number", quantity(block.number)),
            ("parentBeaconBlockRoot", .string(emptyTrieRoot)),
            ("parentHash", .string(block.parentHash.hex)),
            ("receiptsRoot", .string(empty ? emptyTrieRoot : EVMHash(hashing: ["receipts"] + contents).hex)),
            ("requestsHash", .string(emptyRequestsHash)),
            ("sha3Uncles", .string(emptyUnclesHash)),
            // The RLP size: 616 bytes for an empty block (as py-evm's), a transfer adds about 184.
            ("size", quantity(616 + block.transactions.reduce(0) { $0 + 184 + $1.transaction.input.count })),
            ("stateRoot", .string(EVMHash(hashing: ["state", block.hash.hex]).hex)),
            ("timestamp", quantity(block.timestamp)),
            ("transactions", transactions),
            ("transactionsRoot", .string(empty ? emptyTrieRoot : EVMHash(hashing: ["transactions"] + contents).hex)),
            ("uncles", .array([])),
            ("withdrawals", .array([])),
            ("withdrawalsRoot", .string(emptyTrieRoot)),
        ])
    }

    /// A mined transaction (`eth_getTransactionByHash`, full blocks, Otterscan's search).
    static func transaction(_ mined: EVMMinedTransaction, in block: EVMBlock, chainID: Int) -> JSONValue {
        signed(mined.transaction, chainID: chainID, blockHash: .string(block.hash.hex), blockNumber: quantity(block.number),
               gasPrice: mined.effectiveGasPrice, index: quantity(mined.index))
    }

    /// A transaction in the mempool: no block, its fee cap as its gas price.
    static func pendingTransaction(_ transaction: EVMTransaction, chainID: Int) -> JSONValue {
        signed(transaction, chainID: chainID, blockHash: .null, blockNumber: .null, gasPrice: transaction.maxFeePerGas, index: .null)
    }

    private static func signed(
        _ transaction: EVMTransaction, chainID: Int, blockHash: JSONValue, blockNumber: JSONValue, gasPrice: Int128, index: JSONValue
    ) -> JSONValue {
        let signature = transaction.signature
        return object([
            ("blockHash", blockHash),
            ("blockNumber", blockNumber),
            ("from", .string(transaction.from.hex)),
            ("gas", quantity(transaction.gasLimit)),
            ("gasPrice", quantity(gasPrice)),
            ("maxFeePerGas", quantity(transaction.maxFeePerGas)),
            ("maxPriorityFeePerGas", quantity(transaction.maxPriorityFeePerGas)),
            ("hash", .string(transaction.hash.hex)),
            ("input", .string(EVMHex.data(transaction.input))),
            ("nonce", quantity(transaction.nonce)),
            ("to", transaction.to.map { .string($0.hex) } ?? .null),
            ("transactionIndex", index),
            ("value", quantity(transaction.value)),
            ("type", quantity(EVMTransaction.type)),
            ("accessList", .array([])),
            ("chainId", quantity(chainID)),
            ("v", .string(signature.yParity)),
            ("r", .string(signature.r)),
            ("s", .string(signature.s)),
            ("yParity", .string(signature.yParity)),
        ])
    }

    /// `eth_getTransactionReceipt`; an OP Stack chain's receipt adds the L1 fee and its parts.
    static func receipt(_ mined: EVMMinedTransaction, in block: EVMBlock) -> JSONValue {
        var members: [(String, JSONValue)] = [
            ("blockHash", .string(block.hash.hex)),
            ("blockNumber", quantity(block.number)),
            ("contractAddress", mined.created.map { .string($0.hex) } ?? .null),
            ("cumulativeGasUsed", quantity(mined.cumulativeGasUsed)),
            ("effectiveGasPrice", quantity(mined.effectiveGasPrice)),
            ("from", .string(mined.transaction.from.hex)),
            ("gasUsed", quantity(mined.gasUsed)),
        ]
        if let l1 = mined.l1 {
            members += [
                ("l1BaseFeeScalar", quantity(l1.baseFeeScalar)),
                ("l1BlobBaseFee", quantity(l1.blobBaseFee)),
                ("l1BlobBaseFeeScalar", quantity(l1.blobBaseFeeScalar)),
                ("l1Fee", quantity(l1.fee)),
                ("l1GasPrice", quantity(l1.gasPrice)),
                ("l1GasUsed", quantity(l1.gasUsed)),
            ]
        }
        members += [
            ("logs", .array(mined.logs.map { log($0, of: mined, in: block) })),
            ("logsBloom", .string(mined.logs.isEmpty ? emptyBloom : fullBloom)),
            ("status", quantity(mined.status)),
            ("to", mined.transaction.to.map { .string($0.hex) } ?? .null),
            ("transactionHash", .string(mined.hash.hex)),
            ("transactionIndex", quantity(mined.index)),
            ("type", quantity(EVMTransaction.type)),
        ]
        return object(members)
    }

    /// A log as `eth_getLogs` and receipts give it, with `blockTimestamp` as geth 1.16 writes it.
    static func log(_ log: EVMLog, of mined: EVMMinedTransaction, in block: EVMBlock) -> JSONValue {
        object([
            ("address", .string(log.address.hex)),
            ("topics", .array(log.topics.map { .string($0) })),
            ("data", .string(log.data)),
            ("blockNumber", quantity(block.number)),
            ("transactionHash", .string(mined.hash.hex)),
            ("transactionIndex", quantity(mined.index)),
            ("blockHash", .string(block.hash.hex)),
            ("blockTimestamp", quantity(block.timestamp)),
            ("logIndex", quantity(log.logIndex)),
            ("removed", .bool(false)),
        ])
    }
}
