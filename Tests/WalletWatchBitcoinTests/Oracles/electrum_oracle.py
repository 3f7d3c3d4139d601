"""Electrum's own checks, run on the inputs SPVTests gives walletwatch's.

usage: /usr/bin/python3 electrum_oracle.py < requests.json   (python3-electrum, Debian 12)

Debian 12 packages Electrum 4.3.4 as python3-electrum (scripts/setup installs it). This reads
a JSON list of requests on standard input and prints the list of Electrum's answers, each
computed by Electrum's code alone (electrum/blockchain.py, electrum/verifier.py,
electrum/constants.py), never by walletwatch's:

- {"op": "checkpoints", "net": "mainnet"|"testnet"}: the checkpoints Electrum loaded
  (constants.*.CHECKPOINTS, from checkpoints.json / checkpoints_testnet.json), each
  [hash of block 2016*(i+1)-1, target of period i+1 as 64 hex digits], and Electrum's version.
- {"op": "target", "bits": n}: Blockchain.bits_to_target (Core's SetCompact), hex; or refused.
- {"op": "bits", "target": hex}: Blockchain.target_to_bits (Core's GetCompact).
- {"op": "retarget", "first": header, "last": header}: Blockchain.get_target of a period whose
  first and last headers (80 bytes, hex) are these, as Electrum computes it past its
  checkpoints: the target of the next period, hex, and its bits.
- {"op": "period_target", "height": h}: the target Electrum's mainnet checkpoints give the
  period holding block h (get_target(h // 2016 - 1)), hex, and its bits.
- {"op": "headers", "headers": [hex], "after": hash, "bits": n} (or "height": h instead of
  "bits"): each header checked by Blockchain.verify_header, in turn, against the one before
  (the first against "after", a displayed hash) and the target of "bits" (or of the period
  Electrum's checkpoints give block h), on mainnet's rules (bits, proof of work): "ok", or the
  index of the first refused and Electrum's reason.
- {"op": "merkle", "txid": hash, "branch": [hash], "position": n}: SPV.hash_merkle_root, the
  root as displayed; or refused, with the exception's class and text.
- {"op": "transaction", "hex": raw}: whether Electrum's transaction parser reads these bytes
  as a transaction (what its verifier refuses in an inner node).
"""
import json
import sys

from electrum import constants, version
from electrum.blockchain import Blockchain, deserialize_header, hash_raw_header
from electrum.verifier import SPV, MerkleVerificationFailure


class Period(Blockchain):
    """A Blockchain that holds only the headers given, and the checkpoints given: enough for
    get_target, which reads the first and last header of a period."""

    def __init__(self, headers, checkpoints):
        self._headers = headers
        self._checkpoints = checkpoints

    @property
    def checkpoints(self):
        return self._checkpoints

    def read_header(self, height):
        return self._headers.get(height)


def hex64(number):
    return "%064x" % number


def answer(request):
    op = request["op"]
    if op == "checkpoints":
        net = {"mainnet": constants.BitcoinMainnet, "testnet": constants.BitcoinTestnet}[request["net"]]
        return {"electrum": version.ELECTRUM_VERSION, "entries": [[h, hex64(t)] for h, t in net.CHECKPOINTS]}
    if op == "target":
        try:
            return {"target": hex64(Blockchain.bits_to_target(request["bits"]))}
        except Exception as error:
            return {"refused": str(error)}
    if op == "bits":
        return {"bits": Blockchain.target_to_bits(int(request["target"], 16))}
    if op == "retarget":
        headers = {2016: deserialize_header(bytes.fromhex(request["first"]), 2016),
                   4031: deserialize_header(bytes.fromhex(request["last"]), 4031)}
        target = Period(headers, []).get_target(1)
        return {"target": hex64(target), "bits": Blockchain.target_to_bits(target)}
    if op == "period_target":
        target = Period({}, constants.net.CHECKPOINTS).get_target(request["height"] // 2016 - 1)
        return {"target": hex64(target), "bits": Blockchain.target_to_bits(target)}
    if op == "headers":
        if "bits" in request:
            target = Blockchain.bits_to_target(request["bits"])
        else:
            target = Period({}, constants.net.CHECKPOINTS).get_target(request["height"] // 2016 - 1)
        previous = request["after"]
        for index, raw in enumerate(request["headers"]):
            header = deserialize_header(bytes.fromhex(raw), index)
            try:
                Blockchain.verify_header(header, previous, target)
            except Exception as error:
                return {"refused_at": index, "reason": str(error)}
            previous = hash_raw_header(raw)
        return {"ok": True}
    if op == "merkle":
        try:
            return {"root": SPV.hash_merkle_root(request["branch"], request["txid"], request["position"])}
        except MerkleVerificationFailure as error:
            return {"refused": type(error).__name__ + ": " + str(error)}
    if op == "transaction":
        try:
            SPV._raise_if_valid_tx(request["hex"])
        except MerkleVerificationFailure:
            return {"transaction": True}
        return {"transaction": False}
    raise ValueError("unknown op " + op)


assert not constants.net.TESTNET, "mainnet's rules: Electrum checks no proof of work on the test networks"
json.dump([answer(request) for request in json.load(sys.stdin)], sys.stdout)
