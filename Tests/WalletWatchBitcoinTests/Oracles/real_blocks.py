"""Real mainnet blocks for SPVTests, read by other people's code: bitcoinlib's and ElectrumX's.

usage: .build/python-tools/bin/python real_blocks.py   (scripts/setup installs both there)

PyPI's bitcoinlib 0.7.10 ships, in its wheel, real mainnet blocks with every transaction
(tests/block250000.pickle ... each a pickled bytes object: the block as a node serves it).
bitcoinlib reads each block's header (its hash, its height from the coinbase, bits, Merkle root)
and checks its proof of work. ElectrumX 2.0.0 reads the transactions the way an Electrum server
indexes a block (coins.Bitcoin.block: its segwit deserializer, each txid the hash of the
transaction without its witness) and its Merkle class builds the branches of a few positions,
as it answers blockchain.transaction.get_merkle. (bitcoinlib's own Transaction.txid is not used:
it serializes a transaction again, and for five transactions of blocks 625007 and 629999 gets
another txid.) Prints one JSON object: {"bitcoinlib", "e-x", "blocks": [{"file", "height",
"hash", "header", "bits", "merkle_root", "pow", "txids", "electrumx": [{"position", "branch",
"root"}]}]}, hashes as displayed (reversed hex). Nothing here is walletwatch's code: the test
compares walletwatch's results with these.
"""
import importlib.metadata
import json
import pickle
import sys

from bitcoinlib.blocks import Block
from electrumx.lib.coins import Bitcoin
from electrumx.lib.merkle import Merkle


def displayed(internal):
    return internal[::-1].hex()


def main():
    files = sorted(str(f) for f in importlib.metadata.files("bitcoinlib")
                   if str(f).startswith("tests/block") and str(f).endswith(".pickle"))
    distribution = importlib.metadata.distribution("bitcoinlib")
    blocks = []
    for name in files:
        with open(distribution.locate_file(name), "rb") as handle:
            raw = pickle.load(handle)
        # The coinbase alone: bitcoinlib reads the height from it (BIP34).
        block = Block.parse_bytes(raw, parse_transactions=True, limit=1)
        internal = [transaction.txid_rev for transaction in Bitcoin.block(raw, block.height).transactions]
        assert len(internal) == block.tx_count, name
        txids = [displayed(txid) for txid in internal]
        count = len(txids)
        positions = sorted({p for p in (0, 1, count // 3, count // 2, count - 2, count - 1) if 0 <= p < count})
        merkle = Merkle()
        proofs = []
        for position in positions:
            branch, root = merkle.branch_and_root(internal, position)
            proofs.append({"position": position, "branch": [displayed(h) for h in branch], "root": displayed(root)})
        blocks.append({
            "file": name,
            "height": block.height,
            "hash": block.block_hash.hex(),
            "header": raw[:80].hex(),
            "bits": int.from_bytes(block.bits, "big"),
            "merkle_root": block.merkle_root.hex(),
            "txids": txids,
            "pow": block.check_proof_of_work(),
            "electrumx": proofs,
        })
    json.dump({"bitcoinlib": importlib.metadata.version("bitcoinlib"), "e-x": importlib.metadata.version("e-x"),
               "blocks": blocks}, sys.stdout)


main()
