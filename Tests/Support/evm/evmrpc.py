"""Ethereum JSON-RPC over the test chain, answered as geth answers: quantities as 0x-hex without
leading zeros, data as 0x-hex, addresses in lower case, camelCase names, `null` for what does not
exist, errors as JSON-RPC error objects. Also Erigon's Otterscan namespace (`ots_`), computed
from the node's index, and the `test_` control methods the tests drive the chain with.

Fault switches (test_setFaults) change answers the way a broken or hostile server would; they
never change the chain.
"""

from __future__ import annotations

import json
import threading
import time
from collections import Counter

from eth_utils import to_checksum_address

import evmchain
from evmchain import NodeError, ZERO_ADDRESS, parse_address

CLIENT_VERSION = "walletwatch-evm-node/1.0 (py-evm via eth-tester)"
OTS_API_LEVEL = 8  # Erigon's current API_LEVEL
OTS_MAX_PAGE_SIZE = 25  # Erigon's default --ots.search.max.pagesize


def q(number: int) -> str:
    return hex(number)


def data(raw: bytes) -> str:
    return "0x" + bytes(raw).hex()


def parse_quantity(value, what: str) -> int:
    if isinstance(value, str) and value.startswith(("0x", "0X")) and len(value) > 2:
        try:
            return int(value, 16)
        except ValueError:
            pass
    raise NodeError(f"invalid argument: {what} {value!r} is not a 0x-prefixed hex quantity", -32602)


def parse_data(value, what: str) -> bytes:
    if isinstance(value, str) and value.startswith("0x") and len(value) % 2 == 0:
        try:
            return bytes.fromhex(value[2:])
        except ValueError:
            pass
    raise NodeError(f"invalid argument: {what} {value!r} is not 0x-prefixed hex data", -32602)


def parse_hash(value, what: str = "hash") -> bytes:
    raw = parse_data(value, what)
    if len(raw) != 32:
        raise NodeError(f"invalid argument: {what} {value!r} is not 32 bytes", -32602)
    return raw


def parse_amount(value, what: str) -> int:
    """An amount in a control method: an integer, a decimal string or a 0x-hex string (a string
    keeps amounts above 2^53 exact in every JSON library)."""
    if isinstance(value, bool):
        raise NodeError(f"{what} must be an integer, not {value!r}", -32602)
    if isinstance(value, int):
        result = value
    elif isinstance(value, str) and value.startswith("0x"):
        result = parse_quantity(value, what)
    elif isinstance(value, str) and value.isdigit():
        result = int(value)
    else:
        raise NodeError(f"{what} must be an integer or a decimal or 0x-hex string, not {value!r}", -32602)
    if result < 0:
        raise NodeError(f"{what} must not be negative", -32602)
    return result


class Faults:
    """What the tests switched on. Every switch is off by default.

    chainId: int: eth_chainId and net_version answer this chain id instead of the real one.
    nonHexQuantity: [method]: those methods answer their quantities in decimal ("12", not "0xc").
    wrongType: [method]: those methods answer a result of the wrong JSON type.
    rpcError: {method: message}: those methods answer a JSON-RPC error (-32000, the message).
    omitTransactions: [hash]: every history answer (eth_getLogs, ots_ searches and internal
        operations, the Etherscan lists) leaves these transactions out; balances still count
        them, so a history does not reconcile.
    foreignLogs: bool: eth_getLogs ignores its address filter (logs of other contracts come too).
    logsMaxBlocks: int: eth_getLogs over more blocks than this answers the error a provider's cap
        gives (-32000, "exceed maximum block range: N", as BSC's and other geth forks' nodes word it).
    otsUnavailable: bool: ots_ methods do not exist (a geth or reth node).
    etherscanRateLimit: int: the next N Etherscan answers are "Max rate limit reached" (-1: all).
    etherscanCallsPerSecond: int: Etherscan answers more calls than this within a second with
        the rate-limit error, as the free tier does (3).
    etherscanChainUnsupported: bool: /v2/api answers that the free tier does not cover the chain.
    etherscanLagBlocks: int: the Etherscan API sees the chain as it was this many blocks ago (an
        explorer's index trails the tip).
    """

    KNOWN = {"chainId", "nonHexQuantity", "wrongType", "rpcError", "omitTransactions", "foreignLogs", "logsMaxBlocks", "otsUnavailable",
             "etherscanRateLimit", "etherscanCallsPerSecond", "etherscanChainUnsupported", "etherscanLagBlocks"}

    def __init__(self):
        self.lock = threading.Lock()
        self.values: dict = {}
        self.recent_etherscan_calls: list[float] = []

    def set(self, values: dict):
        unknown = set(values) - self.KNOWN
        if unknown:
            raise NodeError(f"unknown fault switches {sorted(unknown)}; known: {sorted(self.KNOWN)}", -32602)
        with self.lock:
            for name, value in values.items():
                if value is None or value is False:
                    self.values.pop(name, None)
                else:
                    self.values[name] = value

    def clear(self):
        with self.lock:
            self.values = {}
            self.recent_etherscan_calls = []

    def get(self, name, default=None):
        with self.lock:
            return self.values.get(name, default)

    def omitted(self) -> set[bytes]:
        return {parse_hash(value, "omitted transaction") for value in self.get("omitTransactions", [])}

    def etherscan_rate_limited(self) -> bool:
        """Whether this Etherscan call is refused for its rate (a refused call counts too, as
        Etherscan counts it)."""
        with self.lock:
            remaining = self.values.get("etherscanRateLimit")
            if remaining:
                if remaining > 0:
                    if remaining == 1:
                        self.values.pop("etherscanRateLimit")
                    else:
                        self.values["etherscanRateLimit"] = remaining - 1
                return True
            limit = self.values.get("etherscanCallsPerSecond")
            if limit:
                now = time.monotonic()
                self.recent_etherscan_calls = [at for at in self.recent_etherscan_calls if now - at < 1.0]
                self.recent_etherscan_calls.append(now)
                return len(self.recent_etherscan_calls) > limit
            return False


class Stats:
    """Requests answered (control methods not counted): `httpRequests`, the JSON-RPC POSTs (a
    batch is one), `batches` among them, `methods` by JSON-RPC method (each element of a batch),
    and `etherscan` by explorer call (`module.action`, both dialects). What a test or the benchmark
    reads to count a pass's requests."""

    def __init__(self):
        self.lock = threading.Lock()
        self.reset()

    def reset(self):
        self.http_requests = 0
        self.batches = 0
        self.methods = Counter()
        self.etherscan = Counter()

    def snapshot(self) -> dict:
        with self.lock:
            return {"httpRequests": self.http_requests, "batches": self.batches, "methods": dict(self.methods),
                    "etherscan": dict(self.etherscan)}


# -- serialisation, as geth writes these objects ---------------------------------------------------

def block_json(chain: evmchain.Chain, block, full: bool) -> dict:
    header = block.header
    if full:
        transactions = [transaction_json(tx, block, index) for index, tx in enumerate(block.transactions)]
    else:
        transactions = [data(tx.hash) for tx in block.transactions]
    return {
        "baseFeePerGas": q(header.base_fee_per_gas),
        "blobGasUsed": q(header.blob_gas_used),
        "difficulty": q(header.difficulty),
        "excessBlobGas": q(header.excess_blob_gas),
        "extraData": data(header.extra_data),
        "gasLimit": q(header.gas_limit),
        "gasUsed": q(header.gas_used),
        "hash": data(header.hash),
        "logsBloom": data(header.bloom.to_bytes(256, "big")),
        "miner": data(header.coinbase),
        "mixHash": data(header.mix_hash),
        "nonce": data(header.nonce),
        "number": q(header.block_number),
        "parentBeaconBlockRoot": data(header.parent_beacon_block_root),
        "parentHash": data(header.parent_hash),
        "receiptsRoot": data(header.receipt_root),
        "requestsHash": data(header.requests_hash),
        "sha3Uncles": data(header.uncles_hash),
        "size": q(evmchain.block_size(block)),
        "stateRoot": data(header.state_root),
        "timestamp": q(header.timestamp),
        "transactions": transactions,
        "transactionsRoot": data(header.transaction_root),
        "uncles": [],
        "withdrawals": [{"index": q(w.index), "validatorIndex": q(w.validator_index), "address": data(w.address), "amount": q(w.amount)}
                        for w in block.withdrawals],
        "withdrawalsRoot": data(header.withdrawals_root),
    }


def transaction_json(tx, block, index: int) -> dict:
    kind = evmchain.transaction_type(tx)
    out = {
        "blockHash": data(block.hash),
        "blockNumber": q(block.number),
        "from": data(tx.sender),
        "gas": q(tx.gas),
        "gasPrice": q(evmchain.effective_gas_price(tx, block.header)),
    }
    if kind >= 2:
        out["maxFeePerGas"] = q(tx.max_fee_per_gas)
        out["maxPriorityFeePerGas"] = q(tx.max_priority_fee_per_gas)
    out.update({
        "hash": data(tx.hash),
        "input": data(tx.data),
        "nonce": q(tx.nonce),
        "to": None if tx.to == b"" else data(tx.to),
        "transactionIndex": q(index),
        "value": q(tx.value),
        "type": q(kind),
    })
    if kind >= 1:
        out["accessList"] = [{"address": data(address), "storageKeys": [data(slot.to_bytes(32, "big")) for slot in slots]}
                             for address, slots in tx.access_list]
        out["chainId"] = q(tx.chain_id)
        out.update({"v": q(tx.y_parity), "r": q(tx.r), "s": q(tx.s), "yParity": q(tx.y_parity)})
    else:
        out.update({"v": q(tx.v), "r": q(tx.r), "s": q(tx.s)})
    return out


def log_json(log: evmchain.LogRecord, record: evmchain.BlockRecord) -> dict:
    # blockTimestamp: geth 1.16 and later add it to every log (eth-tester does not).
    return {
        "address": data(log.address),
        "topics": [data(topic) for topic in log.topics],
        "data": data(log.data),
        "blockNumber": q(record.number),
        "transactionHash": data(log.transaction_hash),
        "transactionIndex": q(log.transaction_index),
        "blockHash": data(record.hash),
        "blockTimestamp": q(record.timestamp),
        "logIndex": q(log.log_index),
        "removed": False,
    }


def receipt_json(chain: evmchain.Chain, record: evmchain.BlockRecord, tx: evmchain.TransactionRecord) -> dict:
    block = chain.block(record.number)
    receipt = block.get_receipts(chain.chain.chaindb)[tx.index]
    return {
        "blockHash": data(record.hash),
        "blockNumber": q(record.number),
        "contractAddress": data(tx.created) if tx.created else None,
        "cumulativeGasUsed": q(tx.cumulative_gas_used),
        "effectiveGasPrice": q(tx.effective_gas_price),
        "from": data(tx.sender),
        "gasUsed": q(tx.gas_used),
        "logs": [log_json(log, record) for log in tx.logs],
        "logsBloom": data(receipt.bloom.to_bytes(256, "big")),
        "status": q(tx.status),
        "to": data(tx.to) if tx.to else None,
        "transactionHash": data(tx.hash),
        "transactionIndex": q(tx.index),
        "type": q(evmchain.transaction_type(block.transactions[tx.index])),
    }


# -- the JSON-RPC front end ---------------------------------------------------------------------

class Rpc:
    def __init__(self, chain: evmchain.Chain):
        self.chain = chain
        self.faults = Faults()
        self.stats = Stats()

    # A request or a batch, as decoded JSON; returns what to send back (None: nothing, for a
    # batch of notifications only).
    def handle(self, body):
        items = body if isinstance(body, list) else [body]
        if not all(isinstance(item, dict) and str(item.get("method", "")).startswith("test_") for item in items) or not items:
            with self.stats.lock:
                self.stats.http_requests += 1
                self.stats.batches += isinstance(body, list)
        if isinstance(body, list):
            if not body:
                return error_response(None, -32600, "empty batch")
            answers = [answer for answer in (self.handle_one(item) for item in body) if answer is not None]
            return answers or None
        return self.handle_one(body)

    def handle_one(self, request):
        # geth does not insist on "jsonrpc": "2.0"; a request without it is served, one with another version is not.
        if not isinstance(request, dict) or request.get("jsonrpc", "2.0") != "2.0" or not isinstance(request.get("method"), str):
            return error_response(request.get("id") if isinstance(request, dict) else None, -32600, "invalid request")
        request_id = request.get("id")
        method = request["method"]
        params = request.get("params", [])
        if not method.startswith("test_"):
            with self.stats.lock:
                self.stats.methods[method] += 1
        try:
            if not isinstance(params, (list, dict)):
                raise NodeError("invalid params: params must be an array", -32602)
            result = self.dispatch(method, params if isinstance(params, list) else [params])
        except NodeError as error:
            return error_response(request_id, error.code, error.message, error.data)
        except Exception as error:  # a bug of the node, or py-evm refusing: say what, keep serving
            return error_response(request_id, -32603, f"internal error: {type(error).__name__}: {error}")
        if "id" not in request:
            return None
        return {"jsonrpc": "2.0", "id": request_id, "result": result}

    def dispatch(self, method: str, params: list):
        if method.startswith("test_"):
            handler = getattr(self, "control_" + method[5:], None)
            if handler is None:
                raise NodeError(f"the method {method} does not exist/is not available", -32601)
            with self.chain.lock:
                return handler(*params)
        error = self.faults.get("rpcError", {}).get(method)
        if error:
            raise NodeError(str(error), -32000)
        if method.startswith("ots_") and self.faults.get("otsUnavailable"):
            raise NodeError(f"the method {method} does not exist/is not available", -32601)
        handler = getattr(self, "rpc_" + method, None)
        if handler is None:
            raise NodeError(f"the method {method} does not exist/is not available", -32601)
        try:
            with self.chain.lock:
                result = handler(*params)
        except TypeError as error:
            if "positional argument" in str(error):
                raise NodeError(f"invalid params for {method}: {error}", -32602) from None
            raise
        return self.apply_answer_faults(method, result)

    def apply_answer_faults(self, method: str, result):
        if method in self.faults.get("nonHexQuantity", []):
            result = decimal_quantities(result)
        if method in self.faults.get("wrongType", []):
            result = wrong_type(result)
        return result

    # -- block selection --------------------------------------------------------------------------

    def block_number_param(self, value, allow_future: bool = False) -> int | None:
        """A block parameter (tag, 0x number, or EIP-1898 object) as a canonical block number; None
        for a number above the tip."""
        chain = self.chain
        if isinstance(value, dict):
            if "blockHash" in value:
                block = chain.block_by_hash(parse_hash(value["blockHash"], "blockHash"))
                if block is None:
                    raise NodeError(f"header for hash {value['blockHash']} not found")
                return block.number
            if "blockNumber" in value:
                value = value["blockNumber"]
            else:
                raise NodeError("invalid argument: a block object needs blockNumber or blockHash", -32602)
        tags = {"latest": chain.latest_number, "pending": chain.latest_number, "earliest": 0,
                "safe": chain.safe_number, "finalized": chain.finalized_number}
        if value in tags:
            return tags[value]
        number = parse_quantity(value, "block number")
        if number > chain.latest_number:
            return None
        return number

    def state_block(self, value) -> int:
        number = self.block_number_param("latest" if value is None else value)
        if number is None:
            raise NodeError("header not found")
        return number

    # -- eth_ -----------------------------------------------------------------------------------

    def rpc_web3_clientVersion(self):
        return CLIENT_VERSION

    def rpc_net_version(self):
        return str(self.faults.get("chainId", self.chain.chain_id))

    def rpc_eth_chainId(self):
        return q(self.faults.get("chainId", self.chain.chain_id))

    def rpc_eth_syncing(self):
        return False

    def rpc_eth_blockNumber(self):
        return q(self.chain.latest_number)

    def rpc_eth_gasPrice(self):
        return q(self.chain.chain.header.base_fee_per_gas + evmchain.GWEI)

    def rpc_eth_maxPriorityFeePerGas(self):
        return q(evmchain.GWEI)

    def rpc_eth_getBalance(self, address, block=None):
        return q(self.chain.balance(parse_address(address), self.state_block(block)))

    def rpc_eth_getTransactionCount(self, address, block=None):
        account = parse_address(address)
        if block == "pending":
            return q(self.chain.pending_nonce(account))
        return q(self.chain.nonce(account, self.state_block(block)))

    def rpc_eth_getCode(self, address, block=None):
        return data(self.chain.code(parse_address(address), self.state_block(block)))

    def rpc_eth_call(self, call, block=None, *overrides):
        if not isinstance(call, dict):
            raise NodeError("invalid argument 0: a call object is required", -32602)
        number = self.state_block(block)
        sender = parse_address(call["from"], "from") if call.get("from") else ZERO_ADDRESS
        to = parse_address(call["to"], "to") if call.get("to") else None
        payload = call.get("input", call.get("data", "0x"))
        computation = self.chain.call(sender, to, parse_data(payload, "input"), parse_quantity(call["value"], "value") if call.get("value") else 0,
                                      parse_quantity(call["gas"], "gas") if call.get("gas") else None, number)
        if computation.is_error:
            output = computation.output
            if type(computation.error).__name__ == "Revert" and output:
                raise NodeError(f"execution reverted{revert_reason(output)}", 3, data(output))
            raise NodeError(evmchain._error_text(computation))
        return data(computation.output)

    def rpc_eth_estimateGas(self, call, block=None):
        number = self.state_block(block)
        sender = parse_address(call["from"], "from") if call.get("from") else ZERO_ADDRESS
        to = parse_address(call["to"], "to") if call.get("to") else None
        payload = parse_data(call.get("input", call.get("data", "0x")), "input")
        value = parse_quantity(call["value"], "value") if call.get("value") else 0
        computation = self.chain.call(sender, to, payload, value, None, number)
        if computation.is_error:
            raise NodeError(f"execution reverted{revert_reason(computation.output)}", 3, data(computation.output))
        # Intrinsic gas plus what execution used, rounded up by a margin as clients pad it.
        intrinsic = 21_000 + sum(16 if byte else 4 for byte in payload) + (32_000 if to is None else 0)
        return q(intrinsic + computation.get_gas_used() + computation.get_gas_refund() // 2)

    def rpc_eth_getBlockByNumber(self, block, full=False):
        number = self.block_number_param(block)
        if number is None:
            return None
        return block_json(self.chain, self.chain.block(number), bool(full))

    def rpc_eth_getBlockByHash(self, block_hash, full=False):
        block = self.chain.block_by_hash(parse_hash(block_hash, "block hash"))
        return None if block is None else block_json(self.chain, block, bool(full))

    def rpc_eth_getTransactionByHash(self, tx_hash):
        found = self.chain.transaction(parse_hash(tx_hash, "transaction hash"))
        if found is None:
            return self.pending_transaction_json(parse_hash(tx_hash))
        record, tx = found
        block = self.chain.block(record.number)
        return transaction_json(block.transactions[tx.index], block, tx.index)

    def pending_transaction_json(self, tx_hash: bytes):
        for tx in self.chain.mempool:
            if tx.hash == tx_hash:
                kind = evmchain.transaction_type(tx)
                out = {"blockHash": None, "blockNumber": None, "from": data(tx.sender), "gas": q(tx.gas),
                       "gasPrice": q(evmchain.fee_cap(tx))}
                if kind >= 2:
                    out.update({"maxFeePerGas": q(tx.max_fee_per_gas), "maxPriorityFeePerGas": q(tx.max_priority_fee_per_gas)})
                out.update({"hash": data(tx.hash), "input": data(tx.data), "nonce": q(tx.nonce),
                            "to": None if tx.to == b"" else data(tx.to), "transactionIndex": None, "value": q(tx.value), "type": q(kind)})
                return out
        return None

    def rpc_eth_getTransactionReceipt(self, tx_hash):
        found = self.chain.transaction(parse_hash(tx_hash, "transaction hash"))
        if found is None:
            return None
        return receipt_json(self.chain, *found)

    def rpc_eth_getBlockReceipts(self, block):
        number = self.block_number_param(block)
        if number is None:
            return None
        record = self.chain.record(number)
        return [receipt_json(self.chain, record, tx) for tx in record.transactions]

    def rpc_eth_sendRawTransaction(self, raw):
        payload = parse_data(raw, "raw transaction")
        try:
            tx = self.chain.chain.get_vm().get_transaction_builder().decode(payload)
            tx.sender  # recovers the signer: a bad signature fails here
        except Exception as error:
            raise NodeError(f"invalid transaction: {error}", -32602) from None
        return data(self.chain.submit(tx))

    def rpc_eth_getLogs(self, criteria):
        if not isinstance(criteria, dict):
            raise NodeError("invalid argument 0: a filter object is required", -32602)
        chain = self.chain
        if criteria.get("blockHash") is not None:
            if criteria.get("fromBlock") is not None or criteria.get("toBlock") is not None:
                raise NodeError("invalid argument 0: cannot specify both BlockHash and FromBlock/ToBlock, choose one or the other", -32602)
            block = chain.block_by_hash(parse_hash(criteria["blockHash"], "blockHash"))
            if block is None:
                raise NodeError("unknown block")
            first = last = block.number
        else:
            first = self.block_number_param(criteria.get("fromBlock") or "latest")
            last = self.block_number_param(criteria.get("toBlock") or "latest")
            if first is None:
                return []
            last = chain.latest_number if last is None else last
            if first > last:
                raise NodeError("invalid block range params", -32602)
        limit = self.faults.get("logsMaxBlocks")
        if limit and last - first + 1 > limit:
            raise NodeError(f"exceed maximum block range: {limit}")
        addresses = criteria.get("address")
        if isinstance(addresses, str):
            addresses = [addresses]
        wanted = {parse_address(address) for address in addresses} if addresses else None
        if self.faults.get("foreignLogs"):
            wanted = None
        topics = []
        for position, topic in enumerate(criteria.get("topics") or []):
            if topic is None:
                topics.append(None)
            elif isinstance(topic, list):
                topics.append({parse_hash(item, f"topic {position}") for item in topic if item is not None} or None)
            else:
                topics.append({parse_hash(topic, f"topic {position}")})
        omitted = self.faults.omitted()
        found = []
        for number in range(first, last + 1):
            record = chain.record(number)
            for tx in record.transactions:
                if tx.hash in omitted:
                    continue
                for log in tx.logs:
                    if wanted is not None and log.address not in wanted:
                        continue
                    if len(topics) > len(log.topics):
                        continue
                    if any(options is not None and log.topics[i] not in options for i, options in enumerate(topics)):
                        continue
                    found.append(log_json(log, record))
        return found

    # -- ots_ (Erigon's Otterscan namespace) ------------------------------------------------------

    def rpc_ots_getApiLevel(self):
        return OTS_API_LEVEL

    def rpc_ots_hasCode(self, address, block=None):
        return len(self.chain.code(parse_address(address), self.state_block(block))) > 0

    def rpc_ots_getInternalOperations(self, tx_hash):
        raw = parse_hash(tx_hash, "transaction hash")
        found = self.chain.transaction(raw)
        if found is None:
            raise NodeError(f"transaction {data(raw)} not found")
        if raw in self.faults.omitted():
            return []
        _, tx = found
        return [{"type": op.kind, "from": data(op.sender), "to": data(op.to), "value": q(op.value)} for op in tx.internal]

    def rpc_ots_getTransactionError(self, tx_hash):
        raw = parse_hash(tx_hash, "transaction hash")
        found = self.chain.transaction(raw)
        if found is None:
            raise NodeError(f"transaction {data(raw)} not found")
        return data(found[1].revert_output)

    def rpc_ots_searchTransactionsAfter(self, address, block_number, page_size):
        return self.search(address, block_number, page_size, forward=True)

    def rpc_ots_searchTransactionsBefore(self, address, block_number, page_size):
        return self.search(address, block_number, page_size, forward=False)

    def search(self, address, block_number, page_size, forward: bool) -> dict:
        """Erigon's search (turbo/jsonrpc/otterscan_search_v3.go, read for its rules): the
        transactions whose call tree has the address as a sender or a callee, from the block after
        (or before) `block_number`, whole blocks only: a page ends at the first block boundary at or
        after `page_size` matches. Either direction answers newest first. After: `firstPage` when
        the search reached the tip, `lastPage` when it started at genesis (block 0); before: the
        reverse."""
        account = parse_address(address)
        if not isinstance(block_number, int) or isinstance(block_number, bool) or block_number < 0:
            raise NodeError(f"invalid argument 1: block number {block_number!r} must be a non-negative integer", -32602)
        if not isinstance(page_size, int) or isinstance(page_size, bool) or page_size < 1:
            raise NodeError(f"invalid argument 2: page size {page_size!r} must be a positive integer", -32602)
        if page_size > OTS_MAX_PAGE_SIZE:
            raise NodeError(f"max allowed page size: {OTS_MAX_PAGE_SIZE}")
        chain = self.chain
        latest = chain.latest_number
        omitted = self.faults.omitted()
        if forward:
            numbers = range(block_number + 1 if block_number > 0 else 0, latest + 1)
        else:
            numbers = range((block_number - 1) if block_number > 0 else latest, -1, -1)
        matches: list[tuple[evmchain.BlockRecord, evmchain.TransactionRecord]] = []
        has_more = False
        for number in numbers:
            if number > latest:
                break
            record = chain.record(number)
            in_block = [tx for tx in record.transactions if account in tx.touched and tx.hash not in omitted]
            if not in_block:
                continue
            if len(matches) >= page_size:
                has_more = True
                break
            matches.extend((record, tx) for tx in (in_block if forward else reversed(in_block)))
        if forward:
            matches.reverse()
        txs, receipts = [], []
        for record, tx in matches:
            block = chain.block(record.number)
            txs.append(transaction_json(block.transactions[tx.index], block, tx.index))
            receipt = receipt_json(chain, record, tx)
            # Erigon adds the block's time to each receipt, as a plain JSON number.
            receipt["timestamp"] = record.timestamp
            receipts.append(receipt)
        if forward:
            return {"txs": txs, "receipts": receipts, "firstPage": not has_more, "lastPage": block_number == 0}
        return {"txs": txs, "receipts": receipts, "firstPage": block_number == 0, "lastPage": not has_more}


def error_response(request_id, code: int, message: str, error_data=None) -> dict:
    error = {"code": code, "message": message}
    if error_data is not None:
        error["data"] = error_data
    return {"jsonrpc": "2.0", "id": request_id, "error": error}


def revert_reason(output: bytes) -> str:
    """': reason' for a revert with an Error(string) payload, as geth appends it."""
    if output[:4] == bytes.fromhex("08c379a0"):
        try:
            from eth_abi import decode

            return ": " + decode(["string"], output[4:])[0]
        except Exception:
            return ""
    return ""


QUANTITY_FIELDS = {"number", "blockNumber", "gasUsed", "cumulativeGasUsed", "effectiveGasPrice", "status", "value", "nonce",
                   "timestamp", "gas", "gasPrice", "logIndex", "transactionIndex", "baseFeePerGas", "gasLimit"}


def decimal_quantities(result):
    """The result with its quantities written in decimal: a top-level quantity, or the quantity
    fields of objects (and of objects in arrays)."""
    def convert(value):
        if isinstance(value, str) and value.startswith("0x"):
            return str(int(value, 16))
        return value
    if isinstance(result, str):
        return convert(result)
    if isinstance(result, dict):
        return {key: (convert(value) if key in QUANTITY_FIELDS else decimal_quantities(value) if isinstance(value, (list, dict)) else value)
                for key, value in result.items()}
    if isinstance(result, list):
        return [decimal_quantities(item) if isinstance(item, (dict, list)) else item for item in result]
    return result


def wrong_type(result):
    if isinstance(result, str):
        return {"value": result}
    if isinstance(result, (dict, list)):
        return "0x1"
    if isinstance(result, bool):
        return "true"
    return [result]


def dumps(value) -> bytes:
    return json.dumps(value, separators=(",", ":")).encode()


def checksum(address: bytes) -> str:
    return to_checksum_address(address)
