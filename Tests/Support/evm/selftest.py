#!/usr/bin/env python3
"""Self-test of the EVM test node (run with .build/python-evm/bin/python): starts evm_node.py,
builds a scenario on its chain (2 watched accounts, 3 tokens of 6, 6 and 18 decimals, native and
token transfers, a failed transaction, internal transfers, one of them inside a reverted
transaction, finality lagging the tip, a reorg), then checks that every history the node serves
(Otterscan's ots_ search and internal operations, Etherscan's and Blockscout's account lists,
eth_getLogs) adds up to the balances web3.py reads from the chain's state, that answers have the
shapes real nodes give, and that each fault switch breaks what it should.

usage: selftest.py [--bench] [--transactions N] [--verbose]
  --bench: afterwards, times building a chain of N (default 2,000) transactions for 2 addresses
           and 3 tokens, in blocks of 1 and in blocks of 20, and reading it back.
Exits 1 when a check fails, naming it.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import re
import select
import subprocess
import sys
import time
import urllib.parse

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import evm_oracle  # noqa: E402  (web3.py: the oracle)

TRANSFER_TOPIC = "0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef"
QUANTITY = re.compile(r"^0x(0|[1-9a-f][0-9a-f]*)$")
DATA = re.compile(r"^0x([0-9a-f]{2})*$")
ETHER = 10**18


class Failure(Exception):
    pass


class Checks:
    def __init__(self, verbose: bool):
        self.count = 0
        self.verbose = verbose

    def __call__(self, condition, what: str):
        self.count += 1
        if not condition:
            raise Failure(what)
        if self.verbose:
            print(f"  ok: {what}")

    def equal(self, actual, expected, what: str):
        self(actual == expected, f"{what}: expected {expected!r}, got {actual!r}")


class NodeProcess:
    """evm_node.py as a child process; `startup_s` is the time until its port line arrived."""

    def __init__(self, *args: str):
        started = time.perf_counter()
        self.process = subprocess.Popen([sys.executable, os.path.join(HERE, "evm_node.py"), *args],
                                        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        ready, _, _ = select.select([self.process.stdout], [], [], 60)
        line = self.process.stdout.readline() if ready else ""
        if not line.strip().isdigit():
            self.process.kill()
            raise Failure(f"the node did not print its port within 60 s: {line!r} {self.process.stderr.read()}")
        self.startup_s = time.perf_counter() - started
        self.port = int(line)
        self.url = f"http://127.0.0.1:{self.port}"
        self.connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=300)
        self.ids = 0

    def post(self, body) -> object:
        payload = json.dumps(body).encode()
        self.connection.request("POST", "/", payload, {"Content-Type": "application/json"})
        response = self.connection.getresponse()
        text = response.read()
        return json.loads(text) if text else None

    def call(self, method: str, *params):
        """The result, or raises with the error object."""
        self.ids += 1
        answer = self.post({"jsonrpc": "2.0", "id": self.ids, "method": method, "params": list(params)})
        if "error" in answer:
            raise Failure(f"{method}{params} answered {answer['error']}")
        return answer["result"]

    def error(self, method: str, *params) -> dict:
        self.ids += 1
        answer = self.post({"jsonrpc": "2.0", "id": self.ids, "method": method, "params": list(params)})
        if "error" not in answer:
            raise Failure(f"{method} answered {answer} where an error was expected")
        return answer["error"]

    def control(self, method: str, **params):
        return self.call("test_" + method, params)

    def explorer(self, path: str, **query) -> dict:
        self.connection.request("GET", path + "?" + urllib.parse.urlencode(query))
        response = self.connection.getresponse()
        return json.loads(response.read())

    def stop(self):
        self.connection.close()
        self.process.terminate()
        try:
            self.process.wait(10)
        except subprocess.TimeoutExpired:
            self.process.kill()


# -- reading histories, as a wallet would ----------------------------------------------------------

def ots_native_history(node: NodeProcess, check: Checks, address: str, page_size: int) -> tuple[int, list[str]]:
    """The native balance a wallet computes from Erigon's search (paged forward, whole blocks a
    page) and internal operations: what the address sent (value and fee), received, and received
    or sent inside successful transactions. Returns (balance, transaction hashes)."""
    me = address.lower()
    seen: list[str] = []
    total = 0
    after = 0
    first_call = True
    while True:
        page = node.call("ots_searchTransactionsAfter", address, after, page_size)
        check(page["lastPage"] == first_call, f"ots page after {after}: lastPage is true only for the search from genesis")
        first_call = False
        txs, receipts = page["txs"], page["receipts"]
        check(len(txs) == len(receipts), "ots page: one receipt a transaction")
        blocks = [int(tx["blockNumber"], 16) for tx in txs]
        check(blocks == sorted(blocks, reverse=True), "ots page: newest first")
        for block in set(blocks):
            # Never splits a block: every transaction of that block touching the address is here.
            whole = node.call("ots_searchTransactionsAfter", address, block - 1, 25)
            in_block = {tx["hash"] for tx in whole["txs"] if int(tx["blockNumber"], 16) == block}
            check(in_block <= {tx["hash"] for tx in txs}, f"ots page holds all of block {block}")
        for tx, receipt in zip(reversed(txs), reversed(receipts)):
            check(tx["hash"] == receipt["transactionHash"], "ots receipts in the order of txs")
            check(isinstance(receipt["timestamp"], int), "ots receipt timestamp is a JSON number, as Erigon writes it")
            seen.append(tx["hash"])
            fee = int(receipt["gasUsed"], 16) * int(receipt["effectiveGasPrice"], 16)
            ok = receipt["status"] == "0x1"
            if tx["from"] == me:
                total -= fee + (int(tx["value"], 16) if ok else 0)
            if ok and tx["to"] == me:
                total += int(tx["value"], 16)
            if ok:
                for op in node.call("ots_getInternalOperations", tx["hash"]):
                    if op["type"] == 0 and op["to"] == me:
                        total += int(op["value"], 16)
                    if op["type"] == 0 and op["from"] == me:
                        total -= int(op["value"], 16)
        if page["firstPage"] or not txs:
            break
        after = max(blocks)
    check(len(seen) == len(set(seen)), f"ots search of {address}: no transaction twice")
    return total, seen


def explorer_native_history(node: NodeProcess, check: Checks, path: str, address: str, offset: int, **extra) -> int:
    """The native balance from an explorer's txlist and txlistinternal, paged `offset` at a time."""
    me = address.lower()
    total = 0
    for row in explorer_rows(node, check, path, "txlist", address, offset, **extra):
        ok = row["isError"] == "0"
        if row["from"] == me:
            total -= int(row["gasUsed"]) * int(row["gasPrice"]) + (int(row["value"]) if ok else 0)
        if ok and row["to"] == me:
            total += int(row["value"])
    for row in explorer_rows(node, check, path, "txlistinternal", address, offset, **extra):
        if row["isError"] != "0":
            continue
        if row["to"] == me:
            total += int(row["value"])
        if row["from"] == me:
            total -= int(row["value"])
    return total


def explorer_rows(node, check, path, action, address, offset, **extra) -> list[dict]:
    rows, page = [], 1
    while True:
        query = {"module": "account", "action": action, "address": address, "startblock": 0, "endblock": 99999999,
                 "page": page, "offset": offset, "sort": "asc", **extra}
        answer = node.explorer(path, **query)
        if answer["status"] == "0":
            check(answer["result"] == [] and answer["message"].startswith("No "), f"{path} {action} page {page}: empty is status 0 with []")
            return rows
        check(answer["message"] == "OK" and answer["status"] == "1", f"{path} {action}: status 1 OK")
        for row in answer["result"]:
            check(all(isinstance(value, str) for value in row.values()), f"{path} {action}: every value a string")
        rows.extend(answer["result"])
        if len(answer["result"]) < offset:
            return rows
        page += 1


def token_sum_from_logs(node: NodeProcess, token: str, address: str) -> int:
    me = "0x" + "0" * 24 + address.lower()[2:]
    received = node.call("eth_getLogs", {"fromBlock": "earliest", "toBlock": "latest", "address": token, "topics": [TRANSFER_TOPIC, None, me]})
    sent = node.call("eth_getLogs", {"fromBlock": "earliest", "toBlock": "latest", "address": token, "topics": [TRANSFER_TOPIC, me]})
    return sum(int(log["data"], 16) for log in received) - sum(int(log["data"], 16) for log in sent)


def token_sum_from_explorer(node, check, path, token, address, offset, **extra) -> int:
    me = address.lower()
    total = 0
    for row in explorer_rows(node, check, path, "tokentx", address, offset, contractaddress=token, **extra):
        if row["to"] == me:
            total += int(row["value"])
        if row["from"] == me:
            total -= int(row["value"])
    return total


def check_shapes(check: Checks, value, where: str):
    """Quantities without leading zeros, data and addresses as lower-case 0x-hex, in every
    object of an answer."""
    quantity_keys = {"number", "blockNumber", "gas", "gasUsed", "gasPrice", "gasLimit", "value", "nonce", "timestamp", "status",
                     "cumulativeGasUsed", "effectiveGasPrice", "transactionIndex", "logIndex", "baseFeePerGas", "maxFeePerGas",
                     "maxPriorityFeePerGas", "type", "chainId", "size", "v", "yParity", "blockTimestamp"}
    data_keys = {"hash", "blockHash", "from", "to", "address", "input", "data", "parentHash", "logsBloom", "transactionHash", "miner"}
    if isinstance(value, dict):
        for key, item in value.items():
            if key == "nonce" and "mixHash" in value:
                check(re.match(r"^0x[0-9a-f]{16}$", item) is not None, f"{where}.nonce: a block's nonce is 8 bytes of data")
            elif key in quantity_keys and isinstance(item, str):
                check(QUANTITY.match(item) is not None, f"{where}.{key} = {item!r} is a quantity without leading zeros")
            elif key in data_keys and isinstance(item, str):
                check(DATA.match(item) is not None, f"{where}.{key} is lower-case 0x data")
            elif isinstance(item, (dict, list)):
                check_shapes(check, item, f"{where}.{key}")
    elif isinstance(value, list):
        for position, item in enumerate(value):
            check_shapes(check, item, f"{where}[{position}]")


# -- the scenario ----------------------------------------------------------------------------------

def scenario(check: Checks) -> dict:
    node = NodeProcess("--chain-id", "31337", "--block-time", "12", "--genesis-timestamp", "1767225600")
    figures = {"startup_s": node.startup_s}
    try:
        faucet = node.control("status")["faucet"]
        alice = node.control("newAccount", seed="walletwatch alice")["address"]
        bob = node.control("newAccount", seed="walletwatch bob")["address"]
        carol = node.control("newAccount", seed="walletwatch carol")["address"]  # a counterparty, not watched
        check.equal(node.call("eth_chainId"), "0x7a69", "eth_chainId of --chain-id 31337")

        node.control("fund", to=alice, value=str(10 * ETHER))
        node.control("fund", to=bob, value=str(5 * ETHER))
        node.control("fund", to=carol, value=str(ETHER))
        usdc = node.control("deployToken", name="USD Coin", symbol="USDC", decimals=6)["address"]
        usdt = node.control("deployToken", name="Tether USD", symbol="USDT", decimals=6)["address"]
        dai = node.control("deployToken", name="Dai Stablecoin", symbol="DAI", decimals=18)["address"]
        node.control("mintToken", token=usdc, to=alice, amount="1000000000")
        node.control("mintToken", token=usdt, to=bob, amount="500000000")
        node.control("mintToken", token=dai, to=alice, amount=str(10**24))
        node.control("mintToken", token=dai, to=carol, amount=str(7 * ETHER))

        node.control("transfer", **{"from": alice, "to": bob, "value": str(15 * ETHER // 10)})
        node.control("transfer", **{"from": bob, "to": alice, "value": str(ETHER // 4)})
        node.control("transfer", **{"from": alice, "to": alice, "value": "1"})  # to itself: only the fee leaves
        node.control("sendTransaction", **{"from": bob, "to": carol, "value": 0})  # a spend of 0 value: the fee, a nonce
        node.control("transfer", **{"from": alice, "to": carol, "value": str(ETHER // 10)})
        node.control("tokenTransfer", token=usdc, **{"from": alice, "to": bob, "amount": "250000000"})
        node.control("tokenTransfer", token=usdt, **{"from": bob, "to": alice, "amount": "100000000"})
        node.control("tokenTransfer", token=dai, **{"from": alice, "to": bob, "amount": "12345678901234567891"})
        node.control("tokenTransfer", token=dai, **{"from": carol, "to": bob, "amount": str(3 * ETHER)})  # bob only receives
        node.control("tokenTransfer", token=usdc, **{"from": alice, "to": bob, "amount": "0"})  # a zero-value token transfer

        # A failed transaction: bob sends more USDC than he holds; it reverts, he pays the gas.
        failed = node.control("tokenTransfer", token=usdc, **{"from": bob, "to": carol, "amount": str(10**12)})
        check.equal(failed["status"], 0, "a transfer of more than the balance reverts")
        failed_receipt = node.call("eth_getTransactionReceipt", failed["hash"])
        check.equal(failed_receipt["status"], "0x0", "its receipt has status 0x0")
        check(int(failed_receipt["gasUsed"], 16) > 21_000 and failed_receipt["logs"] == [], "it used gas and logged nothing")

        # Internal transfers: a contract pays alice (and alice and bob); one inside a reverted transaction.
        forwarder = node.control("deployForwarder")["address"]
        internal = node.control("forward", forwarder=forwarder, **{"from": carol, "to": alice, "value": str(3 * ETHER // 10)})
        split = node.control("forward", forwarder=forwarder, second=bob, **{"from": faucet, "to": alice, "value": "1001"})
        reverted = node.control("forward", forwarder=forwarder, revert=True, **{"from": faucet, "to": bob, "value": str(ETHER)})
        check.equal(reverted["status"], 0, "forward_and_revert fails")
        ops = node.call("ots_getInternalOperations", internal["hash"])
        check.equal(ops, [{"type": 0, "from": forwarder.lower(), "to": alice.lower(), "value": hex(3 * ETHER // 10)}],
                    "ots_getInternalOperations of the forward: one transfer, from the contract")
        check.equal([op["to"] for op in node.call("ots_getInternalOperations", split["hash"])], [alice.lower(), bob.lower()],
                    "the split: two transfers in execution order")
        check.equal(len(node.call("ots_getInternalOperations", reverted["hash"])), 1,
                    "a reverted transaction's internal call is still listed, as Erigon's tracer lists it")
        check(node.call("ots_getTransactionError", reverted["hash"]).startswith("0x08c379a0"), "ots_getTransactionError: the revert's Error(string)")
        # One block with three of alice's transactions: a search page never splits it.
        node.control("setAutomine", enabled=False)
        node.control("transfer", **{"from": bob, "to": alice, "value": str(ETHER // 100)})
        node.control("forward", forwarder=forwarder, **{"from": bob, "to": alice, "value": "5"})  # bob pays a contract that pays alice
        node.control("transfer", **{"from": carol, "to": alice, "value": "9"})
        shared = node.control("mine")
        node.control("setAutomine", enabled=True)
        shared_block = int(node.call("eth_getBlockByHash", shared["blocks"][0], False)["number"], 16)
        page = node.call("ots_searchTransactionsAfter", alice, shared_block - 1, 1)
        check.equal([int(tx["blockNumber"], 16) for tx in page["txs"]], [shared_block] * 3,
                    "a page of size 1 holds the whole block of three")
        check.equal([int(tx["transactionIndex"], 16) for tx in page["txs"]], [2, 1, 0], "newest first within the block too")

        tokens = [usdc, usdt, dai]
        oracle = evm_oracle.read(node.url, [alice, bob], tokens)
        check.equal(oracle["chainId"], 31337, "web3.py reads the chain id")
        check.equal(oracle["tokens"][dai]["balances"][alice]["latest"], 10**24 - 12345678901234567891,
                    "10^24 units less 12.345678901234567891 DAI, exact")
        check.equal(oracle["tokens"][usdc]["decimals"], 6, "USDC has 6 decimals")
        check.equal(oracle["tokens"][dai]["decimals"], 18, "DAI has 18 decimals")

        # Independent accounting: what the control answers say was sent, and the fees of the
        # receipts (read through web3.py), give the balances web3.py reads from the state.
        fees = {alice: 0, bob: 0}
        latest = oracle["latest"]
        for number in range(latest + 1):
            block = node.call("eth_getBlockByNumber", hex(number), True)
            for tx in block["transactions"]:
                receipt = node.call("eth_getTransactionReceipt", tx["hash"])
                for account in fees:
                    if tx["from"] == account.lower():
                        fees[account] += int(receipt["gasUsed"], 16) * int(receipt["effectiveGasPrice"], 16)
        expected_alice = 10 * ETHER - 15 * ETHER // 10 + ETHER // 4 - ETHER // 10 + 3 * ETHER // 10 + 500 + ETHER // 100 + 5 + 9 - fees[alice]
        expected_bob = 5 * ETHER + 15 * ETHER // 10 - ETHER // 4 + 501 - ETHER // 100 - 5 - fees[bob]
        check.equal(oracle["native"][alice]["latest"], expected_alice, "alice's balance: funds, transfers, internal transfers, fees")
        check.equal(oracle["native"][bob]["latest"], expected_bob, "bob's balance: the failed transaction cost its fee only")

        reconcile(node, check, [alice, bob], tokens, oracle, "the scenario")

        # Shapes of answers, as real nodes give them.
        check_shapes(check, node.call("eth_getBlockByNumber", "latest", True), "block")
        check_shapes(check, node.call("eth_getTransactionReceipt", internal["hash"]), "receipt")
        logs = node.call("eth_getLogs", {"fromBlock": "0x0", "toBlock": "latest", "address": dai})
        check_shapes(check, logs, "logs")
        check(all("blockTimestamp" in log and log["removed"] is False for log in logs), "logs carry blockTimestamp (as geth 1.16) and removed")
        block = node.call("eth_getBlockByNumber", logs[-1]["blockNumber"], False)
        check.equal(logs[-1]["blockTimestamp"], block["timestamp"], "a log's blockTimestamp is its block's")
        check.equal(int(block["timestamp"], 16), 1767225600 + 12 * int(block["number"], 16), "--block-time 12 from the genesis timestamp")
        check(QUANTITY.match(node.call("eth_getBalance", alice, "latest")), "eth_getBalance: a quantity")
        check.equal(node.call("eth_getTransactionReceipt", "0x" + "ab" * 32), None, "an unknown receipt is null")
        check.equal(node.call("eth_getBlockByNumber", hex(latest + 100), False), None, "a block above the tip is null")
        check.equal(node.error("eth_getBalance", alice, hex(latest + 100))["message"], "header not found", "state above the tip: header not found")
        check.equal(node.error("eth_nonsense")["code"], -32601, "an unknown method: -32601")
        check.equal(node.error("ots_searchTransactionsAfter", alice, 0, 26)["message"], "max allowed page size: 25", "Erigon's page size cap")
        batch = node.post([{"jsonrpc": "2.0", "id": 7, "method": "eth_blockNumber", "params": []},
                           {"jsonrpc": "2.0", "id": 8, "method": "eth_getBalance", "params": ["0x12", "latest"]},
                           {"jsonrpc": "2.0", "id": 9, "method": "eth_chainId"}])
        check.equal([answer["id"] for answer in batch], [7, 8, 9], "a batch is answered element by element")
        check("error" in batch[1] and batch[1]["error"]["code"] == -32602 and "result" in batch[0], "a bad element fails alone")
        check.equal(node.post([])["error"]["code"], -32600, "an empty batch is an invalid request")
        call = node.call("eth_call", {"to": usdc, "data": "0x70a08231" + "0" * 24 + bob[2:].lower()}, "latest")
        check.equal(int(call, 16), 250000000, "eth_call balanceOf(bob)")
        revert = node.error("eth_call", {"from": bob, "to": usdc, "data": "0xa9059cbb" + "0" * 24 + carol[2:].lower() + "%064x" % 10**12}, "latest")
        check.equal((revert["code"], revert["message"]), (-32000, "execution reverted"),
                    "eth_call reverting without data (vyper's checked subtraction): -32000, as geth answers")
        reason = node.error("eth_call", {"from": bob, "to": forwarder, "value": "0x1", "data": "0xa46adbe6" + "0" * 24 + carol[2:].lower()})
        check.equal((reason["code"], reason["message"]), (3, "execution reverted: forwarded, then reverted"),
                    "eth_call reverting with Error(string): code 3 and the reason, as geth answers")
        check(reason["data"].startswith("0x08c379a0"), "and the revert data")

        # Finality: finalized trails latest by the depth set; balances at finalized are older.
        node.control("setFinality", finalizedDepth=3, safeDepth=1)
        before = node.control("transfer", **{"from": alice, "to": bob, "value": "777"})
        status = node.control("status")
        check.equal((status["latest"] - status["finalized"], status["latest"] - status["safe"]), (3, 1), "finalized 3 and safe 1 below latest")
        check.equal(int(node.call("eth_getBlockByNumber", "finalized", False)["number"], 16), status["finalized"], "the finalized tag")
        oracle = evm_oracle.read(node.url, [alice, bob], tokens)
        check(oracle["native"][bob]["latest"] != oracle["native"][bob]["finalized"], "bob's balance at finalized differs from latest")
        check.equal(oracle["native"][bob]["finalized"], int(node.call("eth_getBalance", bob, hex(status["finalized"])), 16),
                    "web3.py's finalized balance is the balance at the finalized block")

        # A reorg: the last block is replaced; its transaction is dropped.
        check.equal(before["blockNumber"], status["latest"], "the 777 wei transfer is in the latest block")
        check(node.error("test_reorg", {"depth": 4})["message"].startswith("a reorg of 4 blocks would replace finalized block"),
              "a reorg below the finalized block is refused")
        reorg = node.control("reorg", depth=1, drop=[before["hash"]], blocks=2)
        check.equal(reorg["dropped"], [before["hash"]], "the dropped transaction")
        check(reorg["replaced"][str(status["latest"])] != node.call("eth_getBlockByNumber", hex(status["latest"]), False)["hash"],
              "another block at the same height")
        check.equal(node.call("eth_getTransactionReceipt", before["hash"]), None, "the dropped transaction has no receipt")
        oracle = evm_oracle.read(node.url, [alice, bob], tokens)
        reconcile(node, check, [alice, bob], tokens, oracle, "after the reorg")

        faults(node, check, alice, bob, tokens, internal["hash"])
        figures["blocks"] = node.control("status")["latest"]
    finally:
        node.stop()
    return figures


def reconcile(node: NodeProcess, check: Checks, addresses, tokens, oracle, when: str):
    """Every history the node serves adds up to web3.py's balances."""
    for address in addresses:
        expected = oracle["native"][address]["latest"]
        for page_size in (1, 25):
            total, _ = ots_native_history(node, check, address, page_size)
            check.equal(total, expected, f"{when}: ots_ history of {address} (pages of {page_size}) adds up to its balance")
        for offset in (2, 1000):
            check.equal(explorer_native_history(node, check, "/v2/api", address, offset, chainid=31337), expected,
                        f"{when}: Etherscan V2 txlist + txlistinternal of {address} (offset {offset})")
        check.equal(explorer_native_history(node, check, "/api", address, 3), expected, f"{when}: Blockscout /api lists of {address}")
        for token in tokens:
            balance = oracle["tokens"][token]["balances"][address]["latest"]
            check.equal(token_sum_from_logs(node, token, address), balance, f"{when}: eth_getLogs Transfers of {token} for {address}")
            check.equal(token_sum_from_explorer(node, check, "/v2/api", token, address, 2, chainid=31337), balance,
                        f"{when}: Etherscan tokentx of {token} for {address}")
            check.equal(token_sum_from_explorer(node, check, "/api", token, address, 1000), balance, f"{when}: Blockscout tokentx")
            transfers = oracle["tokens"][token]["transfers"]
            mine = sum(t["value"] for t in transfers if t["to"] == address) - sum(t["value"] for t in transfers if t["from"] == address)
            check.equal(mine, balance, f"{when}: web3.py's decoded Transfer events of {token} add up for {address}")


def faults(node: NodeProcess, check: Checks, alice: str, bob: str, tokens: list[str], internal_hash: str):
    oracle = evm_oracle.read(node.url, [alice, bob], tokens)
    # A history that omits a transaction no longer reconciles, in every history API.
    node.control("setFaults", omitTransactions=[internal_hash])
    value = 3 * ETHER // 10
    total, hashes = ots_native_history(node, check, alice, 25)
    check(internal_hash not in hashes, "omitTransactions: the search leaves it out")
    check.equal(oracle["native"][alice]["latest"] - total, value, "omitTransactions: ots history short by the internal transfer")
    check.equal(oracle["native"][alice]["latest"] - explorer_native_history(node, check, "/v2/api", alice, 1000, chainid=31337), value,
                "omitTransactions: Etherscan history short by it too")
    node.control("clearFaults")

    node.control("setFaults", etherscanRateLimit=2)
    answers = [node.explorer("/v2/api", chainid=31337, module="account", action="balance", address=alice) for _ in range(3)]
    check.equal([a["result"] for a in answers[:2]], ["Max rate limit reached"] * 2, "etherscanRateLimit: two refusals")
    check.equal((answers[0]["status"], answers[0]["message"]), ("0", "NOTOK"), "a refusal is status 0 NOTOK")
    check.equal(answers[2]["status"], "1", "then answers again")
    node.control("setFaults", etherscanCallsPerSecond=3)
    burst = [node.explorer("/v2/api", chainid=31337, module="account", action="balance", address=alice)["status"] for _ in range(5)]
    check("0" in burst[3:] and burst[:3] == ["1", "1", "1"], f"etherscanCallsPerSecond 3: the 4th call within a second is refused ({burst})")
    node.control("clearFaults")
    check.equal(node.explorer("/v2/api", chainid=1, module="account", action="balance", address=alice)["result"].split(" (")[0],
                "Missing or unsupported chainid parameter", "/v2/api for another chain id")
    window = node.explorer("/v2/api", chainid=31337, module="account", action="txlist", address=alice, page=11, offset=1000)
    check(window["status"] == "0" and "Result window is too large" in window["result"], "page x offset above 10,000 is refused")
    nobody = "0x000000000000000000000000000000000000dEaD"
    check.equal(node.explorer("/v2/api", chainid=31337, module="account", action="txlistinternal", address=nobody)["message"],
                "No transactions found", "Etherscan's empty internal list")
    check.equal(node.explorer("/api", module="account", action="txlistinternal", address=nobody)["message"],
                "No internal transactions found", "Blockscout's empty internal list")
    check.equal(node.explorer("/api", module="account", action="tokentx", address=nobody)["message"],
                "No token transfers found", "Blockscout's empty token list")
    check.equal(node.explorer("/v2/api", chainid=31337, module="account", action="txlist", address="0x12")["result"],
                "Error! Invalid address format", "Etherscan: a bad address")

    node.control("setFaults", chainId=1)
    check.equal(node.call("eth_chainId"), "0x1", "chainId fault: another chain")
    node.control("setFaults", chainId=None, nonHexQuantity=["eth_getBalance", "eth_blockNumber"])
    check(node.call("eth_getBalance", alice, "latest").isdigit() and node.call("eth_blockNumber").isdigit(), "nonHexQuantity: decimal answers")
    node.control("setFaults", nonHexQuantity=None, rpcError={"eth_getBlockByNumber": "upstream unavailable"})
    check.equal(node.error("eth_getBlockByNumber", "latest", False)["message"], "upstream unavailable", "rpcError: the message")
    node.control("setFaults", rpcError=None, wrongType=["eth_blockNumber"])
    check(not isinstance(node.call("eth_blockNumber"), str), "wrongType: not a string")
    node.control("setFaults", wrongType=None, otsUnavailable=True)
    check.equal(node.error("ots_getApiLevel")["code"], -32601, "otsUnavailable: as geth answers")
    node.control("setFaults", otsUnavailable=None, foreignLogs=True)
    logs = node.call("eth_getLogs", {"fromBlock": "earliest", "toBlock": "latest", "address": tokens[0]})
    check(any(log["address"] != tokens[0].lower() for log in logs), "foreignLogs: logs of other contracts come too")
    node.control("setFaults", foreignLogs=None, logsMaxBlocks=2)
    tip = int(node.call("eth_blockNumber"), 16)
    check.equal(node.error("eth_getLogs", {"fromBlock": hex(tip - 2), "toBlock": hex(tip)})["message"], "exceed maximum block range: 2",
                "logsMaxBlocks: a wider range refused")
    check(isinstance(node.call("eth_getLogs", {"fromBlock": hex(tip - 1), "toBlock": hex(tip)}), list), "logsMaxBlocks: 2 blocks answered")
    node.control("setFaults", logsMaxBlocks=None, etherscanLagBlocks=5)
    lag = node.explorer("/v2/api", chainid=31337, module="account", action="balance", address=alice)
    check.equal(int(lag["result"]), int(node.call("eth_getBalance", alice, hex(int(node.call("eth_blockNumber"), 16) - 5)), 16),
                "etherscanLagBlocks: the explorer answers as of 5 blocks ago")
    node.control("clearFaults")
    stats = node.control("requestStats", reset=True)
    check(stats["methods"].get("eth_getBalance", 0) > 0 and stats["etherscan"].get("account.balance", 0) > 0, "requestStats counts")
    node.call("eth_blockNumber")
    stats = node.control("requestStats")
    check.equal((stats["httpRequests"], stats["methods"]), (1, {"eth_blockNumber": 1}), "requestStats after a reset: one request")


# -- the benchmark's chain -------------------------------------------------------------------------

def bench(check: Checks, transactions: int) -> list[dict]:
    results = []
    for per_block in (1, 20):
        node = NodeProcess("--chain-id", "1", "--block-time", "12")
        try:
            started = time.perf_counter()
            alice = node.control("newAccount", seed="bench alice")["address"]
            bob = node.control("newAccount", seed="bench bob")["address"]
            carol = node.control("newAccount", seed="bench carol")["address"]
            node.control("setAutomine", enabled=False)
            for account in (alice, bob, carol):
                node.control("fund", to=account, value=str(1000 * ETHER))
            tokens = [node.control("deployToken", name=name, symbol=symbol, decimals=decimals)["address"]
                      for name, symbol, decimals in (("USD Coin", "USDC", 6), ("Tether USD", "USDT", 6), ("Dai Stablecoin", "DAI", 18))]
            forwarder = node.control("deployForwarder")["address"]
            node.control("mine")
            check(all(node.call("eth_getCode", address, "latest") != "0x" for address in tokens + [forwarder]),
                  "bench: the contracts deployed in one block")
            setup = [{"type": "mint", "token": token, "to": account, "amount": str(10**30)} for token in tokens for account in (alice, bob, carol)]
            node.control("batch", operations=setup, perBlock=20)
            setup_s = time.perf_counter() - started
            operations = []
            people = [alice, bob, carol]
            for i in range(transactions):
                sender, recipient = people[i % 3], people[(i + 1) % 3]
                kind = i % 10
                if kind < 4:
                    operations.append({"type": "transfer", "from": sender, "to": recipient, "value": str(10**15 + i)})
                elif kind < 9:
                    operations.append({"type": "tokenTransfer", "token": tokens[i % 3], "from": sender, "to": recipient, "amount": str(10**6 + i)})
                else:
                    operations.append({"type": "forward", "forwarder": forwarder, "from": sender, "to": recipient, "value": str(10**12 + i)})
            started = time.perf_counter()
            built = node.control("batch", operations=operations, perBlock=per_block)
            build_s = time.perf_counter() - started
            check.equal(len(built["transactions"]), transactions, f"bench: {transactions} transactions built")
            check.equal(built["failed"], [], "bench: none failed")
            started = time.perf_counter()
            oracle = evm_oracle.read(node.url, [alice, bob], tokens)
            oracle_s = time.perf_counter() - started
            started = time.perf_counter()
            rows = explorer_rows(node, check, "/v2/api", "txlist", alice, 1000, chainid=1)
            etherscan_s = time.perf_counter() - started
            started = time.perf_counter()
            total, hashes = ots_native_history(node, check, alice, 25) if per_block == 20 else (None, [])
            ots_s = time.perf_counter() - started if per_block == 20 else None
            if total is not None:
                check.equal(total, oracle["native"][alice]["latest"], "bench: alice's ots history adds up")
            results.append({"perBlock": per_block, "startup_s": round(node.startup_s, 2), "setup_s": round(setup_s, 2),
                            "build_s": round(build_s, 2), "blocks": node.control("status")["latest"],
                            "tx_per_s": round(transactions / build_s), "web3_oracle_s": round(oracle_s, 2),
                            "etherscan_txlist_rows": len(rows), "etherscan_txlist_s": round(etherscan_s, 2),
                            "ots_history_s": None if ots_s is None else round(ots_s, 2)})
        finally:
            node.stop()
    return results


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bench", action="store_true")
    parser.add_argument("--transactions", type=int, default=2000)
    parser.add_argument("--verbose", action="store_true")
    args = parser.parse_args()
    check = Checks(args.verbose)
    try:
        started = time.perf_counter()
        figures = scenario(check)
        print(json.dumps({"scenario": figures | {"seconds": round(time.perf_counter() - started, 1)}, "checks": check.count}))
        if args.bench:
            print(json.dumps({"bench": bench(check, args.transactions), "checks": check.count}))
    except Failure as failure:
        print(f"selftest: FAILED after {check.count} checks: {failure}", file=sys.stderr)
        sys.exit(1)
    print(f"selftest: all {check.count} checks passed")


if __name__ == "__main__":
    main()
