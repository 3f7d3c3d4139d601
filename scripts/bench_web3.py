#!/usr/bin/env python3
"""The peer of the benchmark's evm part (scripts/bench --only evm): web3.py reading, from a JSON-RPC
endpoint, what a wallet tracker needs about some addresses and tokens: every address's ether balance
and every token's balanceOf at the tip and at the finalized block, each token's name, symbol and
decimals, and its Transfer logs (eth_getLogs from block 0) kept where a watched address sends or
receives. The reading is the project's oracle (Tests/Support/evm/evm_oracle.py, what the tests
compare walletwatch with); this script only times it. Run by the python of .build/python-evm.

usage: bench_web3.py URL --address 0x.. [--address ..] [--token 0x.. ...]

Prints one JSON object: {"web3", "import_s", "read_s", "read": the oracle's answer}, where
`import_s` is the time to import web3.py and `read_s` the reading alone.
"""
import argparse
import json
import os
import sys
import time

started = time.perf_counter()
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Tests", "Support", "evm"))
import evm_oracle  # noqa: E402  (web3.py is imported by it)

import_s = time.perf_counter() - started


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("url")
    parser.add_argument("--address", action="append", required=True)
    parser.add_argument("--token", action="append", default=[])
    args = parser.parse_args()
    started = time.perf_counter()
    read = evm_oracle.read(args.url, args.address, args.token)
    read_s = time.perf_counter() - started
    json.dump({"web3": read["web3"], "import_s": import_s, "read_s": read_s, "read": read}, sys.stdout)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
