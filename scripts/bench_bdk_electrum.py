#!/usr/bin/env python3
"""The Bitcoin Dev Kit's side of scripts/bench's electrum comparison (bench only: walletwatch never
runs BDK). Syncs one wallet with BDK's Electrum client the way a BDK wallet does: full_scan from
nothing (stop gap STOP_GAP), then sync of the revealed scripts with nothing changed, timing each
call. Requests and round trips are counted outside BDK, by the relay scripts/bench.py puts
between BDK and the server: this script prints one JSON line when full_scan is done and waits
for a line on stdin before sync, so that the bench can read the relay's counts between the two.

usage: bench_bdk_electrum.py ELECTRUM_URL RECEIVE_DESCRIPTOR CHANGE_DESCRIPTOR NETWORK STOP_GAP BATCH_SIZE
Prints two JSON objects, one a line: {"step": "full_scan", ...} then {"step": "sync", ...}.
"""
import importlib.metadata
import json
import sys
import time

import bdkpython as bdk

url, receive, change, network = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4]
stop_gap, batch_size = int(sys.argv[5]), int(sys.argv[6])
network = getattr(bdk.Network, network.upper())
network_kind = bdk.NetworkKind.MAIN if network == bdk.Network.BITCOIN else bdk.NetworkKind.TEST


def say(line):
    print(json.dumps(line), flush=True)


wallet = bdk.Wallet(bdk.Descriptor(receive, network_kind), bdk.Descriptor(change, network_kind), network,
                    bdk.Persister.new_in_memory())

# The constructor connects and sends server.version: part of a first sync, timed on its own.
started = time.perf_counter()
client = bdk.ElectrumClient(url)
connect_s = time.perf_counter() - started

started = time.perf_counter()
# fetch_prev_txouts off: the balance needs no input values of others' transactions, and
# walletwatch does not fetch a deposit's parents either.
wallet.apply_update(client.full_scan(wallet.start_full_scan().build(), stop_gap, batch_size, False))
full_scan_s = time.perf_counter() - started
revealed = [wallet.derivation_index(bdk.KeychainKind.EXTERNAL), wallet.derivation_index(bdk.KeychainKind.INTERNAL)]
say({"step": "full_scan", "connect_s": connect_s, "full_scan_s": full_scan_s, "revealed": revealed})

# The bench reads the relay's counts now, then answers.
sys.stdin.readline()

started = time.perf_counter()
wallet.apply_update(client.sync(wallet.start_sync_with_revealed_spks().build(), batch_size, False))
sync_s = time.perf_counter() - started

balance = wallet.balance()
say({
    "step": "sync", "bdkpython": importlib.metadata.version("bdkpython"), "sync_s": sync_s,
    "confirmed": balance.confirmed.to_sat(), "pending": balance.trusted_pending.to_sat() + balance.untrusted_pending.to_sat(),
    "transactions": len(wallet.transactions()), "revealed": revealed,
})
