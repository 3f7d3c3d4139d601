"""The `test_` control methods: how a test builds its scenario on the chain. Each takes one
object of named parameters (or none) and answers an object. Amounts are integers of wei or of a
token's smallest unit, given as JSON integers or, to stay exact above 2^53 in any JSON library,
as decimal or 0x-hex strings; amounts in answers are decimal strings.

Every transaction here is a real signed transaction executed by py-evm: a failed one is a
transaction whose execution reverted (status 0, its gas paid), an internal transfer is a
contract's CALL with value.
"""

from __future__ import annotations

from eth_tester.utils.address import generate_contract_address
from eth_utils import to_canonical_address, to_checksum_address

import evmchain
from evmchain import NodeError, parse_address
from evmrpc import data, parse_amount, parse_data, parse_hash


def params_object(params, method: str) -> dict:
    if params is None:
        return {}
    if not isinstance(params, dict):
        raise NodeError(f"{method} takes one object of named parameters", -32602)
    return params


def required(params: dict, name: str, method: str):
    if name not in params:
        raise NodeError(f"{method} needs '{name}'", -32602)
    return params[name]


class Control:
    """Mixed into the JSON-RPC front end (evmrpc.Rpc): `self.chain`, `self.faults`, `self.stats`."""

    # -- reading ---------------------------------------------------------------------------------

    def control_status(self, params=None):
        chain = self.chain
        return {
            "chainId": chain.chain_id, "latest": chain.latest_number, "safe": chain.safe_number, "finalized": chain.finalized_number,
            "finalityDepth": chain.finality_depth, "safeDepth": chain.safe_depth, "automine": chain.automine,
            "mempool": [data(tx.hash) for tx in chain.mempool], "blockTime": chain.block_time,
            "latestTimestamp": chain.chain.get_canonical_head().timestamp, "faults": dict(self.faults.values),
            "faucet": to_checksum_address(chain.faucet),
            "tokens": {to_checksum_address(address): info for address, info in chain.tokens.items()},
        }

    def control_accounts(self, params=None):
        chain = self.chain
        return [{"address": to_checksum_address(address), "balance": str(chain.balance(address, chain.latest_number))}
                for address in chain.keys]

    def control_requestStats(self, params=None):
        params = params_object(params, "test_requestStats")
        stats = self.stats.snapshot()
        if params.get("reset"):
            with self.stats.lock:
                self.stats.reset()
        return stats

    # -- accounts and transactions ---------------------------------------------------------------

    def control_newAccount(self, params=None):
        params = params_object(params, "test_newAccount")
        key = params.get("privateKey")
        address = self.chain.new_account(seed=params.get("seed"), private_key=parse_hash(key, "privateKey") if key else None)
        return {"address": to_checksum_address(address)}

    def sent(self, tx_hash: bytes) -> dict:
        """What a control method answers for a transaction: its hash, and once mined its block
        and status (0: reverted), gas used and fee."""
        found = self.chain.transaction(tx_hash)
        if found is None:
            return {"hash": data(tx_hash), "blockNumber": None, "status": None}
        record, tx = found
        return {"hash": data(tx_hash), "blockNumber": record.number, "blockHash": data(record.hash), "status": tx.status,
                "gasUsed": str(tx.gas_used), "fee": str(tx.gas_used * tx.effective_gas_price),
                "contractAddress": to_checksum_address(tx.created) if tx.created else None}

    def control_fund(self, params):
        """Sends `value` wei to `to` from the faucet (a genesis account with a million ether) or `from`."""
        params = params_object(params, "test_fund")
        sender = parse_address(params["from"], "from") if "from" in params else self.chain.faucet
        to = parse_address(required(params, "to", "test_fund"), "to")
        value = parse_amount(required(params, "value", "test_fund"), "value")
        return self.sent(self.chain.send(sender, to, value, gas=evmchain.NATIVE_TRANSFER_GAS))

    def control_transfer(self, params):
        """A native transfer between two addresses (the sender's key held by the node)."""
        params = params_object(params, "test_transfer")
        sender = parse_address(required(params, "from", "test_transfer"), "from")
        to = parse_address(required(params, "to", "test_transfer"), "to")
        value = parse_amount(required(params, "value", "test_transfer"), "value")
        return self.sent(self.chain.send(sender, to, value, gas=evmchain.NATIVE_TRANSFER_GAS))

    def control_sendTransaction(self, params):
        """Any transaction: `from`, optional `to` (none: a contract creation), `value`, `data`,
        `gas`, `maxFeePerGas`, `maxPriorityFeePerGas`."""
        params = params_object(params, "test_sendTransaction")
        sender = parse_address(required(params, "from", "test_sendTransaction"), "from")
        to = parse_address(params["to"], "to") if params.get("to") else None
        fees = {}
        if "maxFeePerGas" in params:
            fees["max_fee"] = parse_amount(params["maxFeePerGas"], "maxFeePerGas")
        if "maxPriorityFeePerGas" in params:
            fees["max_priority_fee"] = parse_amount(params["maxPriorityFeePerGas"], "maxPriorityFeePerGas")
        return self.sent(self.chain.send(
            sender, to, parse_amount(params.get("value", 0), "value"), parse_data(params.get("data", "0x"), "data"),
            parse_amount(params.get("gas", evmchain.CALL_GAS if to else evmchain.DEPLOY_GAS), "gas"), **fees))

    # -- contracts -------------------------------------------------------------------------------

    def deploy(self, contract: str, sender: bytes, types: list[str], args: list) -> dict:
        from eth_abi import encode

        compiled = self.chain.contracts.get(contract)
        tx = self.chain.sign(sender, None, 0, compiled["bytecode"] + encode(types, args), evmchain.DEPLOY_GAS)
        answer = self.sent(self.chain.submit(tx))
        if answer["status"] == 0:
            raise NodeError(f"deploying {contract} failed: {answer}")
        # Known before it is mined (automining off): the address comes from the sender and nonce.
        answer.pop("contractAddress", None)
        answer["address"] = to_checksum_address(generate_contract_address(tx.sender, tx.nonce))
        return answer

    def control_deployToken(self, params):
        """Deploys contracts/Token.vy (a minimal ERC-20): `name`, `symbol`, `decimals` (0-255),
        from `from` or the faucet. The deployer mints."""
        params = params_object(params, "test_deployToken")
        sender = parse_address(params["from"], "from") if "from" in params else self.chain.faucet
        name = str(required(params, "name", "test_deployToken"))
        symbol = str(required(params, "symbol", "test_deployToken"))
        decimals = parse_amount(required(params, "decimals", "test_deployToken"), "decimals")
        if decimals > 255 or len(name) > 32 or len(symbol) > 32:
            raise NodeError("decimals must be 0 to 255, name and symbol at most 32 characters", -32602)
        answer = self.deploy("Token", sender, ["string", "string", "uint8"], [name, symbol, decimals])
        self.chain.tokens[parse_address(answer["address"])] = {"name": name, "symbol": symbol, "decimals": decimals}
        return answer

    def control_mintToken(self, params):
        """Mints `amount` units of `token` to `to` (sent by the token's deployer)."""
        params = params_object(params, "test_mintToken")
        token = parse_address(required(params, "token", "test_mintToken"), "token")
        to = parse_address(required(params, "to", "test_mintToken"), "to")
        amount = parse_amount(required(params, "amount", "test_mintToken"), "amount")
        minter = self.chain.call_function("Token", token, "minter", [], [], ["address"])[0]
        payload = evmchain.encode_call(self.chain.contracts, "Token", "mint", ["address", "uint256"], [to, amount])
        return self.sent(self.chain.send(to_canonical_address(minter), token, 0, payload))

    def control_tokenTransfer(self, params):
        """`token`.transfer(`to`, `amount`) sent by `from`. More than `from` holds reverts: a
        failed transaction (status 0) that still pays its gas."""
        params = params_object(params, "test_tokenTransfer")
        token = parse_address(required(params, "token", "test_tokenTransfer"), "token")
        sender = parse_address(required(params, "from", "test_tokenTransfer"), "from")
        to = parse_address(required(params, "to", "test_tokenTransfer"), "to")
        amount = parse_amount(required(params, "amount", "test_tokenTransfer"), "amount")
        payload = evmchain.encode_call(self.chain.contracts, "Token", "transfer", ["address", "uint256"], [to, amount])
        return self.sent(self.chain.send(sender, token, 0, payload))

    def control_deployForwarder(self, params=None):
        """Deploys contracts/Forwarder.vy, which pays on the ether it receives (internal transfers)."""
        params = params_object(params, "test_deployForwarder")
        sender = parse_address(params["from"], "from") if "from" in params else self.chain.faucet
        return self.deploy("Forwarder", sender, [], [])

    def control_forward(self, params):
        """`from` pays `value` to `forwarder`, which sends it on to `to` (an internal transfer);
        with `second`, half each to `to` and `second`; with `revert`, the forwarder pays and then
        reverts (status 0: nothing moves but the fee, yet a tracer sees the call)."""
        params = params_object(params, "test_forward")
        forwarder = parse_address(required(params, "forwarder", "test_forward"), "forwarder")
        sender = parse_address(required(params, "from", "test_forward"), "from")
        to = parse_address(required(params, "to", "test_forward"), "to")
        value = parse_amount(required(params, "value", "test_forward"), "value")
        contracts = self.chain.contracts
        if params.get("second"):
            payload = evmchain.encode_call(contracts, "Forwarder", "split", ["address", "address"], [to, parse_address(params["second"], "second")])
        elif params.get("revert"):
            payload = evmchain.encode_call(contracts, "Forwarder", "forward_and_revert", ["address"], [to])
        else:
            payload = evmchain.encode_call(contracts, "Forwarder", "forward", ["address"], [to])
        return self.sent(self.chain.send(sender, forwarder, value, payload))

    # -- blocks, time, finality, reorgs ----------------------------------------------------------

    def control_mine(self, params=None):
        """Mines `blocks` blocks (default 1); the first take what the mempool holds."""
        params = params_object(params, "test_mine")
        blocks = parse_amount(params.get("blocks", 1), "blocks")
        mined = self.chain.mine(blocks)
        return {"blocks": [data(block_hash) for block_hash in mined], "latest": self.chain.latest_number,
                "pending": [data(tx.hash) for tx in self.chain.mempool]}

    def control_setAutomine(self, params):
        """`enabled`: each transaction mined in a block of its own at once (the default), or
        transactions wait in the mempool for test_mine."""
        params = params_object(params, "test_setAutomine")
        self.chain.automine = bool(required(params, "enabled", "test_setAutomine"))
        mined = self.chain.mine_until_empty() if self.chain.automine else []
        return {"automine": self.chain.automine, "mined": [data(block_hash) for block_hash in mined]}

    def control_timeTravel(self, params):
        """The next block gets `timestamp` (seconds; after the latest block's); with `mine`, it is
        mined now (empty unless the mempool holds transactions)."""
        params = params_object(params, "test_timeTravel")
        self.chain.time_travel(parse_amount(required(params, "timestamp", "test_timeTravel"), "timestamp"))
        mined = self.chain.mine(1) if params.get("mine") else []
        return {"mined": [data(block_hash) for block_hash in mined], "latest": self.chain.latest_number}

    def control_setFinality(self, params):
        """`finalizedDepth`: the `finalized` block is that many blocks below the latest (0, the
        default, is eth-tester's own answer: finalized is latest). `safeDepth` likewise for
        `safe` (default: the finalized depth). Both tags then name real blocks of this chain."""
        params = params_object(params, "test_setFinality")
        chain = self.chain
        chain.finality_depth = parse_amount(required(params, "finalizedDepth", "test_setFinality"), "finalizedDepth")
        chain.safe_depth = parse_amount(params.get("safeDepth", chain.finality_depth), "safeDepth")
        if chain.safe_depth > chain.finality_depth:
            raise NodeError("the safe block cannot be below the finalized one: safeDepth <= finalizedDepth", -32602)
        return {"latest": chain.latest_number, "safe": chain.safe_number, "finalized": chain.finalized_number}

    def control_snapshot(self, params=None):
        """The latest block's hash, to come back to with test_revert."""
        return self.chain.snapshot()

    def control_revert(self, params):
        """Makes the block `snapshot` names the head again; the blocks above leave the chain and
        their transactions are gone (not back in the mempool: test_reorg does that)."""
        params = params_object(params, "test_revert")
        block_hash = parse_hash(required(params, "snapshot", "test_revert"), "snapshot")
        if self.chain.block_by_hash(block_hash) is None:
            raise NodeError("no canonical block has that hash", -32602)
        self.chain.mempool = []
        self.chain.revert_to(block_hash)
        return {"latest": self.chain.latest_number}

    def control_reorg(self, params):
        """Replaces the last `depth` blocks with `blocks` new ones (default `depth`): their
        transactions, except those in `drop`, are mined again in the first new block. Refused when
        it would replace the finalized block, unless `force`."""
        params = params_object(params, "test_reorg")
        depth = parse_amount(required(params, "depth", "test_reorg"), "depth")
        drop = {parse_hash(value, "drop") for value in params.get("drop", [])}
        blocks = parse_amount(params["blocks"], "blocks") if "blocks" in params else None
        return self.chain.reorg(depth, drop, blocks, bool(params.get("force")))

    # -- many transactions at once ---------------------------------------------------------------

    def control_batch(self, params):
        """Builds a long history fast: `operations` (each {"type": "transfer", from, to, value},
        {"type": "tokenTransfer", token, from, to, amount}, {"type": "mint", token, to, amount} or
        {"type": "forward", forwarder, from, to, value}), signed and mined `perBlock` to a block
        (default 100) in one py-evm `mine_all` each, the fee cap set from each block's own base
        fee. Stops at the first block py-evm refuses, saying which."""
        params = params_object(params, "test_batch")
        operations = required(params, "operations", "test_batch")
        per_block = parse_amount(params.get("perBlock", 100), "perBlock")
        if not isinstance(operations, list) or per_block < 1:
            raise NodeError("test_batch needs a list of operations and perBlock >= 1", -32602)
        chain = self.chain
        if chain.mempool:
            raise NodeError("the mempool must be empty for test_batch: mine it first", -32602)
        nonces: dict[bytes, int] = {}
        hashes, blocks = [], []
        first_block = chain.latest_number + 1
        for start in range(0, len(operations), per_block):
            chunk = []
            for position, operation in enumerate(operations[start:start + per_block], start):
                sender, to, value, payload, gas = self.batch_operation(operation, position)
                nonce = nonces[sender] if sender in nonces else chain.pending_nonce(sender)
                chunk.append(chain.sign(sender, to, value, payload, gas, nonce=nonce))
                nonces[sender] = nonce + 1
            try:
                blocks.append(chain.mine_block(chunk))
            except Exception as error:
                raise NodeError(f"test_batch: the block of operations {start} to {start + len(chunk) - 1} was refused "
                                f"({type(error).__name__}: {error}); {len(blocks)} blocks were mined before it") from None
            hashes.extend(data(tx.hash) for tx in chunk)
        failed = [tx_hash for tx_hash in hashes if chain.transaction(parse_hash(tx_hash))[1].status == 0]
        return {"transactions": hashes, "failed": failed, "firstBlock": first_block, "lastBlock": chain.latest_number,
                "blocks": len(blocks)}

    def batch_operation(self, operation: dict, position: int):
        where = f"operation {position}"
        if not isinstance(operation, dict):
            raise NodeError(f"{where} is not an object", -32602)
        kind = operation.get("type")
        contracts = self.chain.contracts
        if kind == "transfer":
            return (parse_address(operation.get("from"), f"{where} from"), parse_address(operation.get("to"), f"{where} to"),
                    parse_amount(operation.get("value"), f"{where} value"), b"", evmchain.NATIVE_TRANSFER_GAS)
        if kind == "tokenTransfer":
            payload = evmchain.encode_call(contracts, "Token", "transfer", ["address", "uint256"],
                                           [parse_address(operation.get("to"), f"{where} to"), parse_amount(operation.get("amount"), f"{where} amount")])
            return (parse_address(operation.get("from"), f"{where} from"), parse_address(operation.get("token"), f"{where} token"), 0, payload,
                    evmchain.CALL_GAS)
        if kind == "mint":
            token = parse_address(operation.get("token"), f"{where} token")
            minter = to_canonical_address(self.chain.call_function("Token", token, "minter", [], [], ["address"])[0])
            payload = evmchain.encode_call(contracts, "Token", "mint", ["address", "uint256"],
                                           [parse_address(operation.get("to"), f"{where} to"), parse_amount(operation.get("amount"), f"{where} amount")])
            return minter, token, 0, payload, evmchain.CALL_GAS
        if kind == "forward":
            payload = evmchain.encode_call(contracts, "Forwarder", "forward", ["address"], [parse_address(operation.get("to"), f"{where} to")])
            return (parse_address(operation.get("from"), f"{where} from"), parse_address(operation.get("forwarder"), f"{where} forwarder"),
                    parse_amount(operation.get("value"), f"{where} value"), payload, evmchain.CALL_GAS)
        raise NodeError(f"{where}: unknown type {kind!r} (transfer, tokenTransfer, mint, forward)", -32602)

    # -- faults ----------------------------------------------------------------------------------

    def control_setFaults(self, params):
        """Turns fault switches on (a value) or off (null or false); see evmrpc.Faults."""
        self.faults.set(params_object(params, "test_setFaults"))
        return dict(self.faults.values)

    def control_clearFaults(self, params=None):
        self.faults.clear()
        return {}
