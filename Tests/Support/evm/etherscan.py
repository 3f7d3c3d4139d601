"""Explorer APIs over the test chain, computed from the node's index: the account lists an
explorer builds from blocks, receipts and traces.

Two dialects, as they are served in the wild:
- `/v2/api`: Etherscan's API V2 (`chainid` required). Field lists as Etherscan documents them
  at docs.etherscan.io (api-reference/endpoint txlist, txlistinternal, tokentx, balance); error
  texts from its "common error messages" page (see the fixtures' PROVENANCE.md, evm section).
- `/api`: Blockscout's Etherscan-compatible RPC API (no chain id), following Blockscout's own
  documented examples (apps/block_scout_web/lib/block_scout_web/etherscan.ex) and its address
  controller's messages: its empty answers say "No internal transactions found" and "No token
  transfers found", its internal transactions carry `transactionHash` and `index`, its token
  transfers `logIndex`.

Every value is a string; errors are HTTP 200 with `status` "0". Texts marked "(not documented)"
are this node's own wording where neither documentation gives one.
"""

from __future__ import annotations

from eth_utils import is_hex_address, to_canonical_address

import evmchain
from evmchain import TRANSFER_TOPIC

ETHERSCAN = "etherscan"
BLOCKSCOUT = "blockscout"
MAX_WINDOW = 10_000  # Etherscan: page x offset must stay within 10,000
CHAINID_ERROR = ("Missing or unsupported chainid parameter (required for v2 api), please see https://api.etherscan.io/v2/chainlist "
                 "for the list of supported chainids")
FREE_TIER_CHAIN_ERROR = ("Free API access is not supported for this chain. Please upgrade your api plan for full chain coverage. "
                         "https://etherscan.io/apis")


def ok(result) -> dict:
    return {"status": "1", "message": "OK", "result": result}


def notok(text: str) -> dict:
    return {"status": "0", "message": "NOTOK", "result": text}


class Explorer:
    def __init__(self, rpc):
        self.rpc = rpc  # the JSON-RPC front end: its chain, faults and statistics

    @property
    def chain(self) -> evmchain.Chain:
        return self.rpc.chain

    def answer(self, path: str, query: dict[str, str]) -> dict:
        dialect = ETHERSCAN if path.rstrip("/") == "/v2/api" else BLOCKSCOUT
        faults = self.rpc.faults
        with self.rpc.stats.lock:
            self.rpc.stats.etherscan[f"{query.get('module', '')}.{query.get('action', '')}"] += 1
        if dialect == ETHERSCAN:
            limit = faults.get("etherscanCallsPerSecond")
            if faults.etherscan_rate_limited():
                return notok(f"Max calls per sec rate limit reached ({limit}/sec)" if limit and not faults.get("etherscanRateLimit")
                             else "Max rate limit reached")
            if query.get("chainid") != str(self.chain.chain_id):
                return notok(CHAINID_ERROR)
            if faults.get("etherscanChainUnsupported"):
                return notok(FREE_TIER_CHAIN_ERROR)
        module, action = query.get("module"), query.get("action")
        if module != "account":
            return notok("Error! Missing Or invalid Module name") if dialect == ETHERSCAN else blockscout_error("Unknown module")
        handler = {"balance": self.balance, "txlist": self.txlist, "txlistinternal": self.txlistinternal, "tokentx": self.tokentx}.get(action)
        if handler is None:
            return notok("Error! Missing Or invalid Action name") if dialect == ETHERSCAN else blockscout_error("Unknown action")
        with self.chain.lock:
            return handler(query, dialect)

    # -- what the explorer has indexed ------------------------------------------------------------

    @property
    def tip(self) -> int:
        return max(0, self.chain.latest_number - int(self.rpc.faults.get("etherscanLagBlocks", 0) or 0))

    def address(self, query, dialect, balance=False):
        value = query.get("address")
        if not value:
            return None, (notok("Error! Invalid address format") if dialect == ETHERSCAN
                          else blockscout_error("Query parameter 'address' is required"))
        if not is_hex_address(value):
            if dialect == ETHERSCAN:
                return None, notok("Error! Invalid address format")
            return None, blockscout_error("Invalid address hash" if balance else "Invalid address format")
        return to_canonical_address(value), None

    def window(self, query, dialect):
        """(first block, last block, page, offset, descending) or an error answer."""
        def number(name, default):
            value = query.get(name)
            if value in (None, ""):
                return default
            if value == "latest" and name == "endblock":
                return self.tip
            if not value.isdigit():
                raise ValueError(name)
            return int(value)
        try:
            first, last = number("startblock", 0), min(number("endblock", self.tip), self.tip)
            page, offset = number("page", 1), number("offset", MAX_WINDOW)
        except ValueError as bad:
            return None, notok(f"Error! Invalid {bad} parameter (not documented)") if dialect == ETHERSCAN \
                else blockscout_error(f"Invalid {bad} format (not documented)")
        if page < 1 or offset < 1:
            page, offset = max(page, 1), max(offset, 1)
        if dialect == ETHERSCAN and page * offset > MAX_WINDOW:
            return None, notok("Result window is too large, PageNo x Offset size must be less than or equal to 10000")
        descending = query.get("sort", "asc") == "desc"
        return (first, last, page, offset, descending), None

    def listing(self, rows: list, window, empty_message: str) -> dict:
        first, last, page, offset, descending = window
        if descending:
            rows = list(reversed(rows))
        rows = rows[(page - 1) * offset: page * offset]
        if not rows:
            return {"status": "0", "message": empty_message, "result": []}
        return ok(rows)

    def records(self, window):
        first, last = window[0], window[1]
        omitted = self.rpc.faults.omitted()
        for number in range(first, last + 1):
            record = self.chain.record(number)
            for tx in record.transactions:
                if tx.hash not in omitted:
                    yield record, tx

    # -- actions ---------------------------------------------------------------------------------

    def balance(self, query, dialect):
        address, error = self.address(query, dialect, balance=True)
        if error:
            return error
        tag = query.get("tag", "latest")
        if tag in ("latest", "pending"):
            number = self.tip
        elif tag == "earliest":
            number = 0
        elif tag.isdigit() or tag.startswith("0x"):
            try:
                number = int(tag, 0)
            except ValueError:
                return notok("Error! Invalid tag (not documented)")
            if number > self.tip:
                return notok("Error! Block number already pass") if dialect == ETHERSCAN else blockscout_error("Invalid block (not documented)")
        else:
            return notok("Error! Invalid tag (not documented)")
        return ok(str(self.chain.balance(address, number)))

    def txlist(self, query, dialect):
        address, error = self.address(query, dialect)
        if error:
            return error
        window, error = self.window(query, dialect)
        if error:
            return error
        rows = []
        for record, tx in self.records(window):
            if address not in (tx.sender, tx.to, tx.created):
                continue
            common = {
                "blockNumber": str(record.number), "timeStamp": str(record.timestamp), "hash": hexs(tx.hash), "nonce": str(tx.nonce),
                "blockHash": hexs(record.hash), "transactionIndex": str(tx.index), "from": hexs(tx.sender),
                "to": hexs(tx.to) if tx.to else "", "value": str(tx.value), "gas": str(tx.gas), "gasPrice": str(tx.effective_gas_price),
                "isError": "0" if tx.status == 1 else "1", "txreceipt_status": str(tx.status), "input": hexs(tx.input),
                "contractAddress": hexs(tx.created) if tx.created else "", "cumulativeGasUsed": str(tx.cumulative_gas_used),
                "gasUsed": str(tx.gas_used), "confirmations": str(self.tip - record.number + 1),
            }
            if dialect == BLOCKSCOUT:
                rows.append(common)  # the keys and order of Blockscout's documented example
                continue
            rows.append({key: common[key] for key in ("blockNumber", "blockHash", "timeStamp", "hash", "nonce", "transactionIndex", "from", "to",
                                                      "value", "gas", "gasPrice", "input")}
                        | {"methodId": method_id(tx.input), "functionName": self.function_name(tx.input)}
                        | {key: common[key] for key in ("contractAddress", "cumulativeGasUsed", "txreceipt_status", "gasUsed", "confirmations",
                                                        "isError")})
        return self.listing(rows, window, "No transactions found")

    def txlistinternal(self, query, dialect):
        tx_hash = query.get("txhash")
        address = None
        if not tx_hash:
            address, error = self.address(query, dialect)
            if error:
                return error
        window, error = self.window(query, dialect)
        if error:
            return error
        rows = []
        for record, tx in self.records(window):
            if tx_hash and hexs(tx.hash) != tx_hash.lower():
                continue
            frames_before = 0
            for operation in tx.internal:
                frames_before += 1
                if address is not None and address not in (operation.sender, operation.to):
                    continue
                create = operation.kind in (2, 3)
                row = {"blockNumber": str(record.number), "timeStamp": str(record.timestamp)}
                if dialect == ETHERSCAN:
                    row["hash"] = hexs(tx.hash)
                row.update({"from": hexs(operation.sender), "to": "" if create else hexs(operation.to), "value": str(operation.value),
                            "contractAddress": hexs(operation.to) if create else ""})
                if dialect == BLOCKSCOUT:
                    row.update({"transactionHash": hexs(tx.hash), "index": str(frames_before)})
                row.update({"input": "", "type": {0: "call", 2: "create", 3: "create2"}[operation.kind], "gas": str(operation.gas),
                            "gasUsed": str(operation.gas_used)})
                if dialect == ETHERSCAN:
                    row["traceId"] = "_".join(str(position) for position in operation.trace_address)
                row.update({"isError": "1" if operation.reverted else "0", "errCode": operation.error if operation.reverted else ""})
                rows.append(row)
        return self.listing(rows, window, "No transactions found" if dialect == ETHERSCAN else "No internal transactions found")

    def tokentx(self, query, dialect):
        address, error = self.address(query, dialect)
        if error:
            return error
        contract = query.get("contractaddress")
        if contract:
            if not is_hex_address(contract):
                return notok("Error! Invalid contract address format (not documented)") if dialect == ETHERSCAN \
                    else blockscout_error("Invalid contract address format")
            contract = to_canonical_address(contract)
        window, error = self.window(query, dialect)
        if error:
            return error
        padded = b"\x00" * 12 + address
        rows = []
        for record, tx in self.records(window):
            for log in tx.logs:
                # ERC-20 Transfer: three topics (ERC-721 indexes its token id as a fourth).
                if len(log.topics) != 3 or log.topics[0] != TRANSFER_TOPIC or padded not in log.topics[1:]:
                    continue
                if contract and log.address != contract:
                    continue
                token = self.token_metadata(log.address)
                row = {"blockNumber": str(record.number), "timeStamp": str(record.timestamp), "hash": hexs(tx.hash), "nonce": str(tx.nonce),
                       "blockHash": hexs(record.hash), "from": hexs(log.topics[1][12:]), "contractAddress": hexs(log.address)}
                if dialect == BLOCKSCOUT:
                    row["logIndex"] = str(log.log_index)
                row.update({"to": hexs(log.topics[2][12:]), "value": str(int.from_bytes(log.data[:32], "big")),
                            "tokenName": token["name"], "tokenSymbol": token["symbol"], "tokenDecimal": token["decimals"],
                            "transactionIndex": str(tx.index), "gas": str(tx.gas), "gasPrice": str(tx.effective_gas_price),
                            "gasUsed": str(tx.gas_used), "cumulativeGasUsed": str(tx.cumulative_gas_used)})
                if dialect == ETHERSCAN:
                    row.update({"input": "deprecated", "methodId": method_id(tx.input), "functionName": self.function_name(tx.input)})
                else:
                    row["input"] = hexs(tx.input)
                row["confirmations"] = str(self.tip - record.number + 1)
                rows.append(row)
        return self.listing(rows, window, "No transactions found" if dialect == ETHERSCAN else "No token transfers found")

    # -- helpers ---------------------------------------------------------------------------------

    def token_metadata(self, address: bytes) -> dict:
        """name, symbol and decimals as the contract answers them now (an explorer reads them from
        the contract too); empty strings when it does not answer."""
        out = {}
        for field, returns in (("name", "string"), ("symbol", "string"), ("decimals", "uint8")):
            try:
                value = self.chain.call_function("Token", address, field, [], [], [returns])[0]
                out[field] = str(value)
            except Exception:
                out[field] = ""
        return out

    def function_name(self, payload: bytes) -> str:
        """The called function as Etherscan names it, for the functions of the contracts this node
        deploys; "" for others and for plain transfers (Etherscan's answer for unknown ones)."""
        if len(payload) < 4:
            return ""
        return self.chain.contracts.function_names.get(payload[:4], "")


def blockscout_error(text: str) -> dict:
    return {"status": "0", "message": text, "result": None}


def method_id(payload: bytes) -> str:
    return hexs(payload[:4]) if len(payload) >= 4 else "0x"


def hexs(raw: bytes) -> str:
    return "0x" + bytes(raw).hex()
