#!/usr/bin/env python3
"""The Bitcoin Dev Kit's side of scripts/bench's HD wallet comparison (bench only: walletwatch
never runs BDK). Syncs one wallet with BDK's Esplora client against the simulator, the way a BDK
wallet does: full_scan from nothing (stop gap 20), then sync of the revealed addresses with
nothing changed, counting the simulator's requests for each and timing each call.

usage: bench_bdk.py SIM_BASE_URL RECEIVE_DESCRIPTOR CHANGE_DESCRIPTOR STOP_GAP PARALLEL_REQUESTS
Prints one JSON object.
"""
import importlib.metadata
import json
import sys
import time
import urllib.request

import bdkpython as bdk

base, receive, change, stop_gap, parallel = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]), int(sys.argv[5])


def control(method, path):
    request = urllib.request.Request(base + path, method=method)
    with urllib.request.urlopen(request, timeout=600) as response:
        return response.read()


def requests():
    return [r["path"] for r in json.loads(control("GET", "/control/requests")) if r["path"].startswith("/esplora/")]


wallet = bdk.Wallet(bdk.Descriptor(receive, bdk.NetworkKind.MAIN), bdk.Descriptor(change, bdk.NetworkKind.MAIN),
                    bdk.Network.BITCOIN, bdk.Persister.new_in_memory())
client = bdk.EsploraClient(base + "/esplora")

control("DELETE", "/control/requests")
started = time.perf_counter()
wallet.apply_update(client.full_scan(wallet.start_full_scan().build(), stop_gap, parallel))
full_scan_s = time.perf_counter() - started
full_scan = requests()

control("DELETE", "/control/requests")
started = time.perf_counter()
wallet.apply_update(client.sync(wallet.start_sync_with_revealed_spks().build(), parallel))
sync_s = time.perf_counter() - started
sync = requests()

balance = wallet.balance()
print(json.dumps({
    "bdkpython": importlib.metadata.version("bdkpython"),
    "full_scan_s": full_scan_s, "full_scan_requests": len(full_scan),
    "full_scan_block_requests": len([p for p in full_scan if "/block" in p]),
    "sync_s": sync_s, "sync_requests": len(sync),
    "confirmed": balance.confirmed.to_sat(), "pending": balance.trusted_pending.to_sat() + balance.untrusted_pending.to_sat(),
    "transactions": len(wallet.transactions()),
    "revealed": [wallet.derivation_index(bdk.KeychainKind.EXTERNAL), wallet.derivation_index(bdk.KeychainKind.INTERNAL)],
}))
