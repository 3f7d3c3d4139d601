#!/usr/bin/env python3
"""A real EVM chain for walletwatch's tests, served over HTTP on 127.0.0.1: py-evm (through
eth-tester's PyEVMBackend) behind Ethereum JSON-RPC as geth answers it, Erigon's Otterscan
namespace (`ots_`), Etherscan's API V2 (`GET /v2/api`) and Blockscout's Etherscan-compatible API
(`GET /api`), the last three computed from the chain by the node's own index, and `test_` control
methods (tokens, transfers, failed transactions, internal transfers, mining, time, finality,
reorgs, fault switches). Nothing on PyPI serves eth-tester over HTTP; this does, with the
standard library's ThreadingHTTPServer (one chain lock: requests are served one at a time).

usage: evm_node.py [--port N] [--chain-id N] [--finality-depth N] [--block-time S]
                   [--genesis-timestamp T] [--accounts N] [--exit-with-parent] [--verbose]

The first line on stdout is the port it listens on (chosen by the kernel when --port is 0, the
default), printed once it answers: the ready signal. Logs go to stderr. SIGTERM stops it.
Run it with the Python of .build/python-evm (scripts/setup installs it there).
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qsl, urlsplit

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import evmchain  # noqa: E402
import evmrpc  # noqa: E402
from etherscan import Explorer  # noqa: E402
from evmcontrol import Control  # noqa: E402

MAX_BODY = 32 * 1024 * 1024


class Node(Control, evmrpc.Rpc):
    """The JSON-RPC front end with the control methods mixed in."""


class Handler(BaseHTTPRequestHandler):
    # HTTP/1.1 keeps connections open between requests, as a node's HTTP endpoint does (a client
    # reusing its connection makes one TCP handshake for a whole pass).
    protocol_version = "HTTP/1.1"
    # Headers and body leave in two writes: with Nagle's algorithm on, the body would wait for
    # the client's delayed ACK (40 ms a request on a kept-alive connection).
    disable_nagle_algorithm = True
    server_version = "walletwatch-evm-node/1.0"
    node: Node = None
    explorer: Explorer = None
    verbose = False

    def do_POST(self):
        length = self.headers.get("Content-Length")
        if length is None or not length.isdigit() or int(length) > MAX_BODY:
            self.reply(411 if length is None else 413, {"jsonrpc": "2.0", "id": None,
                                                        "error": {"code": -32600, "message": "a body with its Content-Length is required"}})
            return
        body = self.rfile.read(int(length))
        try:
            request = json.loads(body)
        except ValueError:
            self.reply(200, evmrpc.error_response(None, -32700, "parse error"))
            return
        started = time.perf_counter()
        answer = self.node.handle(request)
        if self.verbose:
            methods = [item.get("method") for item in request] if isinstance(request, list) else request.get("method")
            self.log_message("%s %.1f ms", methods, (time.perf_counter() - started) * 1000)
        self.reply(200, answer)

    def do_GET(self):
        url = urlsplit(self.path)
        if url.path.rstrip("/") in ("/api", "/v2/api"):
            query = dict(parse_qsl(url.query, keep_blank_values=True))
            self.reply(200, self.explorer.answer(url.path, query))
            return
        self.reply(405, {"jsonrpc": "2.0", "id": None, "error": {"code": -32600, "message": "JSON-RPC takes POST; the explorer APIs are GET /api and /v2/api"}})

    def reply(self, status: int, answer):
        payload = b"" if answer is None else evmrpc.dumps(answer)
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(payload)))
        self.end_headers()
        self.wfile.write(payload)

    def log_message(self, format, *args):
        if self.verbose:
            sys.stderr.write(f"evm-node: {format % args}\n")


def exit_with_parent():
    """Ends the node when the process that started it is gone (a test run that crashed cannot
    stop it): its parent changes to init or a subreaper."""
    parent = os.getppid()
    while True:
        time.sleep(0.5)
        if os.getppid() != parent:
            os._exit(0)


def main():
    # A parent's blocked signals are inherited (Swift's concurrency threads block SIGTERM, and
    # Foundation's Process starts its child with the spawning thread's mask): unblock them, so
    # that SIGTERM stops the node.
    signal.pthread_sigmask(signal.SIG_UNBLOCK, signal.valid_signals())
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--chain-id", type=int, default=1337)
    parser.add_argument("--finality-depth", type=int, default=0, help="finalized = latest - N (0: eth-tester's own, finalized = latest)")
    parser.add_argument("--block-time", type=int, default=None, help="seconds between blocks (default: the wall clock, as eth-tester)")
    parser.add_argument("--genesis-timestamp", type=int, default=None)
    parser.add_argument("--accounts", type=int, default=10, help="funded genesis accounts (a million ether each)")
    parser.add_argument("--exit-with-parent", action="store_true")
    parser.add_argument("--verbose", action="store_true")
    args = parser.parse_args()

    chain = evmchain.Chain(chain_id=args.chain_id, finality_depth=args.finality_depth, block_time=args.block_time,
                           genesis_timestamp=args.genesis_timestamp, accounts=args.accounts)
    node = Node(chain)
    Handler.node = node
    Handler.explorer = Explorer(node)
    Handler.verbose = args.verbose
    server = ThreadingHTTPServer((args.host, args.port), Handler)
    server.daemon_threads = True

    def stop(signum, frame):
        threading.Thread(target=server.shutdown, daemon=True).start()

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    if args.exit_with_parent:
        threading.Thread(target=exit_with_parent, daemon=True).start()
    print(server.server_address[1], flush=True)
    sys.stderr.write(f"evm-node: chain {args.chain_id} on http://{args.host}:{server.server_address[1]} "
                     f"(finality depth {args.finality_depth}, faucet {evmrpc.checksum(chain.faucet)})\n")
    server.serve_forever(poll_interval=0.2)
    server.server_close()


if __name__ == "__main__":
    main()
