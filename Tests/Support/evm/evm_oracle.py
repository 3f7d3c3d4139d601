#!/usr/bin/env python3
"""The oracle of walletwatch's EVM tests: what web3.py (the Ethereum Foundation's Python client,
not walletwatch's code) reads from a JSON-RPC endpoint about some addresses and tokens, printed
as one JSON object whose amounts are JSON integers (exact: Python's json writes integers of any
size digit for digit; never floats).

usage: evm_oracle.py URL --address 0x.. [--address ..] [--token 0x.. ...] [--from-block N]

Prints
  {"web3": version, "chainId": N, "latest": N, "finalized": N,
   "native": {address: {"latest": wei, "finalized": wei}},
   "tokens": {token: {"name", "symbol", "decimals",
                      "balances": {address: {"latest": units, "finalized": units}},
                      "transfers": [{"blockNumber", "transactionHash", "logIndex", "from", "to", "value"}]}}}
with addresses as given (checksummed) and transfers those of the given addresses (sender or
recipient), oldest first. Blocks are pinned: "latest" is the block number read first, so every
figure belongs to the same chain state even while blocks are mined.
"""

from __future__ import annotations

import argparse
import importlib.metadata
import json
import sys

from web3 import HTTPProvider, Web3

ERC20_ABI = [
    {"type": "function", "name": "balanceOf", "stateMutability": "view", "inputs": [{"name": "owner", "type": "address"}],
     "outputs": [{"name": "", "type": "uint256"}]},
    {"type": "function", "name": "decimals", "stateMutability": "view", "inputs": [], "outputs": [{"name": "", "type": "uint8"}]},
    {"type": "function", "name": "symbol", "stateMutability": "view", "inputs": [], "outputs": [{"name": "", "type": "string"}]},
    {"type": "function", "name": "name", "stateMutability": "view", "inputs": [], "outputs": [{"name": "", "type": "string"}]},
    {"type": "event", "name": "Transfer", "anonymous": False,
     "inputs": [{"name": "from", "type": "address", "indexed": True}, {"name": "to", "type": "address", "indexed": True},
                {"name": "value", "type": "uint256", "indexed": False}]},
]


def read(url: str, addresses: list[str], tokens: list[str], from_block: int = 0) -> dict:
    w3 = Web3(HTTPProvider(url, request_kwargs={"timeout": 60}))
    latest = w3.eth.block_number
    finalized = w3.eth.get_block("finalized")["number"]
    if finalized > latest:  # a block mined between the two reads: pin to the earlier view
        finalized = latest
    addresses = [Web3.to_checksum_address(address) for address in addresses]
    out = {
        "web3": importlib.metadata.version("web3"),
        "chainId": w3.eth.chain_id,
        "latest": latest,
        "finalized": finalized,
        "native": {address: {"latest": w3.eth.get_balance(address, latest), "finalized": w3.eth.get_balance(address, finalized)}
                   for address in addresses},
        "tokens": {},
    }
    watched = {address.lower() for address in addresses}
    for token in tokens:
        contract = w3.eth.contract(address=Web3.to_checksum_address(token), abi=ERC20_ABI)
        transfer = contract.events.Transfer()
        logs = w3.eth.get_logs({"fromBlock": from_block, "toBlock": latest, "address": contract.address,
                                "topics": [transfer.topic]})
        transfers = []
        for log in logs:
            event = transfer.process_log(log)
            sender, recipient = event["args"]["from"], event["args"]["to"]
            if sender.lower() not in watched and recipient.lower() not in watched:
                continue
            transfers.append({"blockNumber": event["blockNumber"], "transactionHash": "0x" + event["transactionHash"].hex().removeprefix("0x"),
                              "logIndex": event["logIndex"], "from": sender, "to": recipient, "value": event["args"]["value"]})
        out["tokens"][contract.address] = {
            "name": contract.functions.name().call(block_identifier=latest),
            "symbol": contract.functions.symbol().call(block_identifier=latest),
            "decimals": contract.functions.decimals().call(block_identifier=latest),
            "balances": {address: {"latest": contract.functions.balanceOf(address).call(block_identifier=latest),
                                   "finalized": contract.functions.balanceOf(address).call(block_identifier=finalized)}
                         for address in addresses},
            "transfers": transfers,
        }
    return out


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("url")
    parser.add_argument("--address", action="append", required=True)
    parser.add_argument("--token", action="append", default=[])
    parser.add_argument("--from-block", type=int, default=0)
    args = parser.parse_args()
    json.dump(read(args.url, args.address, args.token, args.from_block), sys.stdout)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
