"""The chain behind walletwatch's EVM test node: py-evm, set up by eth-tester's PyEVMBackend
(genesis, ten funded accounts, the Prague VM), driven by this module instead of eth-tester's
auto-mining front end so that a test controls blocks, time, finality and reorgs.

Everything served about the chain is read from the chain: blocks, transactions and receipts
from py-evm's database; balances, nonces and calls from the state at a block's state root. The
one thing a plain node keeps no record of is what happened inside a transaction (the calls
between contracts): like Erigon, which builds its address index while it executes blocks, this
node keeps each transaction's call tree, taken from the computation py-evm returns when it
executes the block (`MiningChain.mine_all`), reduced to what the address index and the
internal-operations answers need. Nothing is written by hand: an internal transfer exists here
because a contract's CALL moved the value.
"""

from __future__ import annotations

import os
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

import rlp
from eth_abi import decode as abi_decode
from eth_abi import encode as abi_encode
from eth_keys import keys
from eth_tester import PyEVMBackend
from eth_tester.utils.address import generate_contract_address
from eth_utils import keccak, to_canonical_address, to_checksum_address
from eth.vm.spoof import SpoofTransaction

ZERO_ADDRESS = b"\x00" * 20
TRANSFER_TOPIC = keccak(text="Transfer(address,address,uint256)")
GWEI = 10**9
# Gas limits of the transactions the control methods send: plain transfers need exactly 21,000;
# the others get a generous limit (only the gas used is paid, a failed transaction included).
NATIVE_TRANSFER_GAS = 21_000
CALL_GAS = 150_000
DEPLOY_GAS = 3_000_000
CONTRACTS = Path(__file__).resolve().parent / "contracts"


class NodeError(Exception):
    """A request the node refuses; `code` and `message` become a JSON-RPC error object."""

    def __init__(self, message: str, code: int = -32000, data: str | None = None):
        super().__init__(message)
        self.code = code
        self.message = message
        self.data = data


@dataclass
class InternalOperation:
    """A value transfer or contract creation made by a contract (depth > 0 in the call tree):
    what Erigon's operations tracer reports, plus what Etherscan's internal list shows."""

    kind: int  # 0 transfer, 2 create, 3 create2 (Otterscan's numbering)
    sender: bytes
    to: bytes
    value: int
    gas: int
    gas_used: int
    trace_address: tuple[int, ...]
    reverted: bool  # this frame or one around it failed: the value did not move
    error: str


@dataclass
class LogRecord:
    address: bytes
    topics: list[bytes]
    data: bytes
    log_index: int  # position in the block, as nodes number logs
    transaction_index: int
    transaction_hash: bytes


@dataclass
class TransactionRecord:
    hash: bytes
    index: int
    sender: bytes
    to: bytes | None
    created: bytes | None
    value: int
    nonce: int
    gas: int
    effective_gas_price: int
    gas_used: int
    cumulative_gas_used: int
    status: int
    input: bytes
    touched: frozenset  # every address in the call tree, as Erigon's trace index holds them
    internal: list[InternalOperation]
    logs: list[LogRecord]
    revert_output: bytes


@dataclass
class BlockRecord:
    number: int
    hash: bytes
    timestamp: int
    transactions: list[TransactionRecord] = field(default_factory=list)


@dataclass
class CallFrame:
    """One frame of a transaction's call tree, reduced from py-evm's computation."""

    depth: int
    trace_address: tuple[int, ...]
    sender: bytes  # the account that made the call (the calling contract for internal frames)
    to: bytes  # callee (code address), or the created contract
    value: int
    moves_value: bool  # a CALL (or create) with value, not a DELEGATECALL or CALLCODE
    is_create: bool
    gas: int
    gas_used: int
    failed: bool  # this frame errored
    reverted: bool  # this frame or one around it errored
    error: str


def call_frames(computation) -> list[CallFrame]:
    """The call tree of an executed transaction, depth first in execution order (the order a
    tracer's enter hook sees the calls). Child computations stay in their parent's `children`
    whether they succeeded or not."""
    frames: list[CallFrame] = []

    def walk(comp, trace_address, parent_storage, parent_reverted):
        msg = comp.msg
        failed = bool(comp.is_error)
        reverted = failed or parent_reverted
        if msg.is_create:
            to, moves_value = msg.storage_address, True
        else:
            to = msg.code_address
            # CALLCODE runs another contract's code on the caller's own account (to == sender);
            # DELEGATECALL transfers nothing (should_transfer_value is false).
            callcode = msg.to == msg.sender and msg.code_address != msg.to and not msg.is_delegation
            moves_value = msg.should_transfer_value and not callcode
        sender = msg.sender if parent_storage is None else parent_storage
        frames.append(CallFrame(
            depth=msg.depth, trace_address=trace_address, sender=sender, to=to, value=msg.value,
            moves_value=moves_value, is_create=msg.is_create, gas=msg.gas, gas_used=comp.get_gas_used(),
            failed=failed, reverted=reverted, error=_error_text(comp) if failed else "",
        ))
        for position, child in enumerate(comp.children):
            walk(child, trace_address + (position,), msg.storage_address, reverted)

    walk(computation, (), None, False)
    return frames


def _error_text(computation) -> str:
    error = computation.error
    name = type(error).__name__
    return "execution reverted" if name == "Revert" else (str(error) or name)


def contract_abi_signature(entry: dict) -> str:
    """`transfer(address _to, uint256 _value)`: a function as Etherscan's functionName shows it."""
    arguments = ", ".join(arg["type"] + " " + arg["name"] for arg in entry.get("inputs", []))
    return f"{entry['name']}({arguments})"


def _selector(entry: dict) -> bytes:
    return keccak(text=f"{entry['name']}({','.join(arg['type'] for arg in entry.get('inputs', []))})")[:4]


class Contracts:
    """The vyper sources under contracts/, compiled on first use (vyper 0.4.3, ~0.2 s each)."""

    def __init__(self):
        self._compiled: dict[str, dict] = {}
        self.function_names: dict[bytes, str] = {}

    def get(self, name: str) -> dict:
        if name not in self._compiled:
            import vyper  # imported here: a node that deploys nothing starts faster

            source = (CONTRACTS / f"{name}.vy").read_text()
            out = vyper.compile_code(source, output_formats=["abi", "bytecode"])
            abi = out["abi"]
            self._compiled[name] = {"abi": abi, "bytecode": bytes.fromhex(out["bytecode"][2:])}
            for entry in abi:
                if entry.get("type") == "function":
                    self.function_names[_selector(entry)] = contract_abi_signature(entry)
        return self._compiled[name]

    def selector(self, name: str, function: str) -> bytes:
        for entry in self.get(name)["abi"]:
            if entry.get("type") == "function" and entry["name"] == function:
                return _selector(entry)
        raise KeyError(function)


def encode_call(contracts: Contracts, contract: str, function: str, types: list[str], args: list) -> bytes:
    return contracts.selector(contract, function) + abi_encode(types, args)


class Chain:
    """A py-evm chain with a mempool, a finality depth and an index of its canonical blocks.

    Every method is called with `lock` held (the HTTP server's threads share one chain; py-evm is
    not thread-safe)."""

    def __init__(self, chain_id: int = 1337, finality_depth: int = 0, safe_depth: int | None = None,
                 block_time: int | None = None, genesis_timestamp: int | None = None, accounts: int = 10):
        overrides = {} if genesis_timestamp is None else {"timestamp": genesis_timestamp}
        params = PyEVMBackend.generate_genesis_params(overrides=overrides)
        state = PyEVMBackend.generate_genesis_state(num_accounts=accounts)
        self.backend = PyEVMBackend(genesis_parameters=params, genesis_state=state)
        # eth-tester's chain class is defined per chain; its id signs transactions (EIP-155 and
        # typed transactions) and is the CHAINID opcode's answer. Set before any block exists.
        type(self.backend.chain).chain_id = chain_id
        self.chain_id = chain_id
        self.lock = threading.RLock()
        self.keys: dict[bytes, keys.PrivateKey] = {key.public_key.to_canonical_address(): key for key in self.backend.account_keys}
        self.faucet = self.backend.account_keys[0].public_key.to_canonical_address()
        self.automine = True
        self.mempool: list = []
        self.finality_depth = finality_depth
        self.safe_depth = finality_depth if safe_depth is None else safe_depth
        self.block_time = block_time
        self.next_timestamp: int | None = None
        self.contracts = Contracts()
        self.tokens: dict[bytes, dict] = {}
        self.records: list[BlockRecord] = []
        self.lookup: dict[bytes, tuple[int, int]] = {}
        self.frames: dict[bytes, list[list[CallFrame]]] = {}  # block hash -> each transaction's call tree
        self.outputs: dict[bytes, list[bytes]] = {}  # block hash -> each transaction's return/revert data
        self.snapshots: dict[str, bytes] = {}
        self.sync_index()

    # -- chain access ---------------------------------------------------------------------------

    @property
    def chain(self):
        # Reverting to genesis makes eth-tester build a new chain object: always read it anew.
        return self.backend.chain

    @property
    def latest_number(self) -> int:
        return self.chain.get_canonical_head().block_number

    @property
    def finalized_number(self) -> int:
        return max(0, self.latest_number - self.finality_depth)

    @property
    def safe_number(self) -> int:
        return max(0, self.latest_number - self.safe_depth)

    def block(self, number: int):
        return self.chain.get_canonical_block_by_number(number)

    def block_by_hash(self, block_hash: bytes):
        """The canonical block with this hash, or None (an orphaned block is not served)."""
        try:
            block = self.chain.get_block_by_hash(block_hash)
        except Exception:
            return None
        if block.number > self.latest_number or self.chain.get_canonical_block_hash(block.number) != block.hash:
            return None
        return block

    def header_at(self, number: int):
        return self.chain.get_canonical_block_header_by_number(number)

    def state_at(self, number: int):
        return self.chain.get_vm(at_header=self.header_at(number)).state

    def balance(self, address: bytes, number: int) -> int:
        return self.state_at(number).get_balance(address)

    def nonce(self, address: bytes, number: int) -> int:
        return self.state_at(number).get_nonce(address)

    def pending_nonce(self, address: bytes) -> int:
        queued = [tx.nonce for tx in self.mempool if tx.sender == address]
        return max(queued) + 1 if queued else self.nonce(address, self.latest_number)

    def code(self, address: bytes, number: int) -> bytes:
        return self.state_at(number).get_code(address)

    def call(self, sender: bytes, to: bytes | None, data: bytes, value: int, gas: int | None, number: int):
        """Executes a call on the state of block `number` without changing anything and without
        charging gas (py-evm's costless state, as eth_call runs): the computation."""
        header = self.header_at(number)
        vm = self.chain.get_vm(at_header=header)
        unsigned = vm.create_unsigned_transaction(
            nonce=vm.state.get_nonce(sender), gas_price=0, gas=gas or header.gas_limit,
            to=to if to is not None else b"", value=value, data=data,
        )
        with vm.in_costless_state() as state:
            return state.costless_execute_transaction(SpoofTransaction(unsigned, from_=sender))

    def call_function(self, contract: str, address: bytes, function: str, types: list[str], args: list, returns: list[str], number=None):
        computation = self.call(ZERO_ADDRESS, address, encode_call(self.contracts, contract, function, types, args), 0, None,
                                self.latest_number if number is None else number)
        if computation.is_error:
            raise NodeError(f"{function} failed on {to_checksum_address(address)}: {_error_text(computation)}")
        return abi_decode(returns, computation.output)

    # -- accounts -------------------------------------------------------------------------------

    def new_account(self, seed: str | None = None, private_key: bytes | None = None) -> bytes:
        """An account whose key the node holds, so that control methods can send from it: from a
        given key, from a seed (keccak of its text: the same seed gives the same address on every
        run), or random."""
        if private_key is None:
            private_key = keccak(text=seed) if seed is not None else os.urandom(32)
        key = keys.PrivateKey(private_key)
        address = key.public_key.to_canonical_address()
        self.keys[address] = key
        return address

    # -- transactions ---------------------------------------------------------------------------

    def sign(self, sender: bytes, to: bytes | None, value: int = 0, data: bytes = b"", gas: int = CALL_GAS,
             nonce: int | None = None, max_priority_fee: int = GWEI, max_fee: int | None = None):
        """A signed EIP-1559 transaction from an account the node holds. The fee cap is twice the
        next block's base fee plus the tip, as wallets set it."""
        key = self.keys.get(sender)
        if key is None:
            raise NodeError(f"the node holds no key for {to_checksum_address(sender)}: create it with test_newAccount", -32602)
        base_fee = self.chain.header.base_fee_per_gas
        builder = self.chain.get_transaction_builder()
        unsigned = builder.new_unsigned_dynamic_fee_transaction(
            chain_id=self.chain_id, nonce=self.pending_nonce(sender) if nonce is None else nonce,
            max_priority_fee_per_gas=max_priority_fee,
            max_fee_per_gas=max_fee if max_fee is not None else 2 * base_fee + max_priority_fee,
            gas=gas, to=to if to is not None else b"", value=value, data=data, access_list=(),
        )
        return unsigned.as_signed_transaction(key)

    def submit(self, tx) -> bytes:
        """Puts a signed transaction in the mempool, checked as a node's pool checks it (chain id,
        nonce, the sender can pay value plus gas at the fee cap), and mines it at once when
        automining is on. Returns its hash."""
        sender = tx.sender
        if getattr(tx, "chain_id", self.chain_id) not in (None, self.chain_id):
            raise NodeError(f"invalid chain id {tx.chain_id}: this chain is {self.chain_id}")
        expected = self.pending_nonce(sender)
        if tx.nonce < expected:
            raise NodeError(f"nonce too low: address {to_checksum_address(sender)}, tx: {tx.nonce} state: {expected}")
        if tx.nonce > expected:
            raise NodeError(f"nonce too high: address {to_checksum_address(sender)}, tx: {tx.nonce} next: {expected}")
        if tx.gas > self.chain.header.gas_limit:
            raise NodeError("exceeds block gas limit")
        have = self.balance(sender, self.latest_number) - sum(
            queued.value + queued.gas * fee_cap(queued) for queued in self.mempool if queued.sender == sender)
        want = tx.value + tx.gas * fee_cap(tx)
        if have < want:
            raise NodeError(f"insufficient funds for gas * price + value: address {to_checksum_address(sender)} have {max(have, 0)} want {want}")
        self.mempool.append(tx)
        if self.automine:
            self.mine_until_empty()
        return tx.hash

    def send(self, sender: bytes, to: bytes | None, value: int = 0, data: bytes = b"", gas: int = CALL_GAS, **fees) -> bytes:
        return self.submit(self.sign(sender, to, value, data, gas, **fees))

    # -- mining ---------------------------------------------------------------------------------

    def _set_next_timestamp(self):
        parent = self.chain.get_canonical_head()
        if self.next_timestamp is not None:
            timestamp, self.next_timestamp = max(self.next_timestamp, parent.timestamp + 1), None
        elif self.block_time is not None:
            timestamp = parent.timestamp + self.block_time
        else:
            timestamp = max(int(time.time()), parent.timestamp + 1)
        self.chain.header = self.chain.header.copy(timestamp=timestamp)

    def _take_from_mempool(self) -> list:
        """The mempool's transactions that fit in the next block, in arrival order: within the gas
        limit, paying at least the base fee; a sender's later transactions wait behind one that
        waits."""
        header = self.chain.header
        gas_left, chosen, kept, waiting = header.gas_limit, [], [], set()
        for tx in self.mempool:
            if tx.sender in waiting or fee_cap(tx) < header.base_fee_per_gas or tx.gas > gas_left:
                waiting.add(tx.sender)
                kept.append(tx)
                continue
            chosen.append(tx)
            gas_left -= tx.gas
        self.mempool = kept
        return chosen

    def mine_block(self, transactions=None) -> bytes:
        """Mines one block: the given signed transactions, or what the mempool offers. py-evm
        executes them (`mine_all`), and the call trees of the returned computations are kept for
        the index. Returns the block's hash."""
        if transactions is None:
            transactions = self._take_from_mempool()
        self._set_next_timestamp()
        result, receipts, computations = self.chain.mine_all(
            list(transactions), coinbase=ZERO_ADDRESS,
            # After the merge a block's mix hash is the beacon chain's randomness (prevrandao);
            # random here, as eth-tester mines it. It also makes a block mined again at the same
            # height (a reorg) differ from the one it replaces.
            mix_hash=os.urandom(32),
        )
        block = result.imported_block
        self.frames[block.hash] = [call_frames(computation) for computation in computations]
        self.outputs[block.hash] = [computation.output if computation.is_error else b"" for computation in computations]
        self.sync_index()
        return block.hash

    def mine(self, blocks: int = 1) -> list[bytes]:
        return [self.mine_block() for _ in range(blocks)]

    def mine_until_empty(self, limit: int = 1000) -> list[bytes]:
        mined = []
        while self.mempool and len(mined) < limit:
            before = len(self.mempool)
            mined.append(self.mine_block())
            if len(self.mempool) == before:
                break  # nothing could be included (fee cap under the base fee): it waits
        return mined

    # -- time, snapshots, reorgs ----------------------------------------------------------------

    def time_travel(self, timestamp: int):
        latest = self.chain.get_canonical_head().timestamp
        if timestamp <= latest:
            raise NodeError(f"timestamp {timestamp} is not after the latest block's ({latest}): time only moves forward", -32602)
        self.next_timestamp = timestamp

    def snapshot(self) -> str:
        block_hash = self.chain.get_canonical_head().hash
        self.snapshots["0x" + block_hash.hex()] = block_hash
        return "0x" + block_hash.hex()

    def revert_to(self, block_hash: bytes):
        """Makes this block the head again (eth-tester's revert_to_snapshot: the canonical head is
        set back and the block imported again); the blocks above it leave the canonical chain."""
        self.backend.revert_to_snapshot(block_hash)
        type(self.backend.chain).chain_id = self.chain_id
        self.sync_index()

    def reorg(self, depth: int, drop: set[bytes], blocks: int | None, force: bool) -> dict:
        """Replaces the last `depth` blocks: back to the block below them, their transactions
        (except those in `drop`) back in the mempool ahead of any queued, then `blocks` new blocks
        (default `depth`) mined on top. New blocks at the old heights have other hashes (their
        mix hash, time and contents differ). A transaction whose sender's earlier transaction
        was dropped can no longer be mined (its nonce is too high): it is dropped too."""
        latest = self.latest_number
        if depth < 1 or depth > latest:
            raise NodeError(f"a reorg needs 1 to {latest} blocks, not {depth}", -32602)
        fork = latest - depth
        if fork < self.finalized_number and not force:
            raise NodeError(f"a reorg of {depth} blocks would replace finalized block {self.finalized_number} "
                            f"(finality depth {self.finality_depth}); pass force to do it anyway", -32602)
        orphaned = [tx for number in range(fork + 1, latest + 1) for tx in self.block(number).transactions]
        old_hashes = {number: self.chain.get_canonical_block_hash(number) for number in range(fork + 1, latest + 1)}
        queued, self.mempool = self.mempool, []
        self.revert_to(self.chain.get_canonical_block_hash(fork))
        dropped = []
        next_nonce: dict[bytes, int] = {}
        for tx in orphaned + queued:
            expected = next_nonce.get(tx.sender, self.nonce(tx.sender, fork))
            if tx.hash in drop or tx.nonce != expected:
                dropped.append(tx.hash)
                continue
            self.mempool.append(tx)
            next_nonce[tx.sender] = expected + 1
        count = depth if blocks is None else blocks
        mined = []
        for _ in range(count):
            mined.append(self.mine_block())
        return {
            "forkBlock": fork,
            "replaced": {str(number): "0x" + block_hash.hex() for number, block_hash in old_hashes.items()},
            "mined": ["0x" + block_hash.hex() for block_hash in mined],
            "dropped": ["0x" + tx_hash.hex() for tx_hash in dropped],
            "pending": ["0x" + tx.hash.hex() for tx in self.mempool],
        }

    # -- the index ------------------------------------------------------------------------------

    def sync_index(self):
        """Brings the index in line with the canonical chain: records of blocks no longer
        canonical go (with their transactions' lookups), then the new canonical blocks are read."""
        chain = self.chain
        head = self.latest_number
        while self.records and (self.records[-1].number > head
                                or chain.get_canonical_block_hash(self.records[-1].number) != self.records[-1].hash):
            for tx in self.records.pop().transactions:
                self.lookup.pop(tx.hash, None)
        for number in range(len(self.records), head + 1):
            record = self._read_block(chain.get_canonical_block_by_number(number))
            self.records.append(record)
            for tx in record.transactions:
                self.lookup[tx.hash] = (record.number, tx.index)

    def _read_block(self, block) -> BlockRecord:
        record = BlockRecord(number=block.number, hash=block.hash, timestamp=block.header.timestamp)
        if not block.transactions:
            return record
        frames = self.frames.get(block.hash)
        if frames is None:
            raise NodeError(f"block {block.number} was not executed by this node: its call trees are unknown")
        receipts = block.get_receipts(self.chain.chaindb)
        state = None
        log_index = 0
        previous_cumulative = 0
        for index, (tx, receipt) in enumerate(zip(block.transactions, receipts)):
            created = generate_contract_address(tx.sender, tx.nonce) if tx.to == b"" else None
            tree = frames[index]
            touched = set()
            internal = []
            for frame in tree:
                touched.add(frame.sender)
                touched.add(frame.to)
                if frame.depth == 0:
                    continue
                if frame.is_create:
                    if state is None:
                        state = self.state_at(block.number)
                    internal.append(InternalOperation(
                        kind=3 if self._is_create2(frame, state) else 2, sender=frame.sender, to=frame.to, value=frame.value,
                        gas=frame.gas, gas_used=frame.gas_used, trace_address=frame.trace_address,
                        reverted=frame.reverted, error=frame.error))
                elif frame.moves_value and frame.value > 0:
                    internal.append(InternalOperation(
                        kind=0, sender=frame.sender, to=frame.to, value=frame.value, gas=frame.gas, gas_used=frame.gas_used,
                        trace_address=frame.trace_address, reverted=frame.reverted, error=frame.error))
            logs = []
            for log in receipt.logs:
                logs.append(LogRecord(
                    address=log.address, topics=[topic.to_bytes(32, "big") for topic in log.topics], data=log.data,
                    log_index=log_index, transaction_index=index, transaction_hash=tx.hash))
                log_index += 1
            record.transactions.append(TransactionRecord(
                hash=tx.hash, index=index, sender=tx.sender, to=None if tx.to == b"" else tx.to, created=created,
                value=tx.value, nonce=tx.nonce, gas=tx.gas, effective_gas_price=effective_gas_price(tx, block.header),
                gas_used=receipt.gas_used - previous_cumulative, cumulative_gas_used=receipt.gas_used,
                status=1 if receipt.state_root == b"\x01" else 0,
                input=tx.data, touched=frozenset(touched), internal=internal, logs=logs,
                revert_output=self.outputs.get(block.hash, [b""] * len(block.transactions))[index],
            ))
            previous_cumulative = receipt.gas_used
        return record

    @staticmethod
    def _is_create2(frame: CallFrame, state) -> bool:
        """Whether a contract created this one with CREATE2: its address is not one CREATE gives
        (keccak of the creator and a nonce it has used: at most its nonce after the block)."""
        nonce_after = state.get_nonce(frame.sender)
        return all(generate_contract_address(frame.sender, nonce) != frame.to for nonce in range(nonce_after + 1))

    def record(self, number: int) -> BlockRecord:
        return self.records[number]

    def transaction(self, tx_hash: bytes):
        """(block record, transaction record) of a canonical transaction, or None."""
        where = self.lookup.get(tx_hash)
        if where is None:
            return None
        number, index = where
        record = self.records[number]
        return record, record.transactions[index]


def transaction_type(tx) -> int:
    return getattr(tx, "type_id", None) or 0


def fee_cap(tx) -> int:
    """The most a transaction pays per gas: its fee cap (EIP-1559 and later), else its gas price."""
    return tx.max_fee_per_gas if transaction_type(tx) >= 2 else tx.gas_price


def effective_gas_price(tx, header) -> int:
    """What the sender paid per gas: min(fee cap, base fee + tip) for EIP-1559 transactions, the
    gas price for older types."""
    if transaction_type(tx) >= 2:
        return min(tx.max_fee_per_gas, tx.max_priority_fee_per_gas + header.base_fee_per_gas)
    return tx.gas_price


def block_size(block) -> int:
    return len(rlp.encode(block))


def parse_address(value, what: str = "address") -> bytes:
    if not isinstance(value, str) or not value.startswith("0x") or len(value) != 42:
        raise NodeError(f"invalid {what}: {value!r} is not a 0x-prefixed 20-byte hex address", -32602)
    try:
        return to_canonical_address(value)
    except ValueError:
        raise NodeError(f"invalid {what}: {value!r} is not a 0x-prefixed 20-byte hex address", -32602) from None
