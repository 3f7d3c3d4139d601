"""Ark address vectors made by embit (PyPI, scripts/setup installs it into .build/python-tools),
independently of walletwatch's own bech32m and secp256k1 code. Prints one JSON object:

- "upstream": arkd's own vector (arkade-os/arkd v0.9.15, commit f444de6c336c024f5b03e646feb781eec9a24c00,
  pkg/ark-lib/encoding_test.go, TestAddressEncoding), decoded here: prefix, checksum, version, keys.
- "valid": addresses encoded here the way arkd's EncodeV0 does (pkg/ark-lib/encoding.go: bech32m over
  version 0 || x-only signer key || x-only VTXO taproot key), for keys of real private keys, on both
  prefixes; and one with a Bech32 checksum, which arkd's DecodeNoLimit accepts too.
- "invalid": addresses arkd's DecodeAddressV0 refuses, each with the reason.

Usage: ark_address_vectors.py"""
import hashlib
import json

from embit import bech32, ec

P = 2**256 - 2**32 - 977  # secp256k1's field


def key(seed):
    """The x-only public key of the private key sha256(seed), computed by embit."""
    secret = hashlib.sha256(seed.encode()).digest()
    return ec.PrivateKey(secret).get_public_key().xonly()


def on_curve(x):
    """Whether some y has y^2 = x^3 + 7 (Euler's criterion), confirmed by embit's parser."""
    value = (pow(x, 3, P) + 7) % P
    square = pow(value, (P - 1) // 2, P) == 1
    try:
        ec.PublicKey.parse(b"\x02" + x.to_bytes(32, "big"))
        parsed = True
    except Exception:
        parsed = False
    assert square == parsed, "embit and Euler's criterion disagree"
    return square


def encode(hrp, payload, encoding=bech32.Encoding.BECH32M):
    return bech32.bech32_encode(encoding, hrp, bech32.convertbits(list(payload), 8, 5, True))


def decode(text):
    """embit's checksum and regrouping without BIP173's 90-character limit (its bech32_decode keeps it)."""
    position = text.rfind("1")
    hrp, data = text[:position], [bech32.CHARSET.find(c) for c in text[position + 1 :]]
    encoding = bech32.bech32_verify_checksum(hrp, data)
    payload = bytes(bech32.convertbits(data[:-6], 5, 8, False))
    return hrp, encoding, payload


def main():
    upstream = "tark1qqellv77udfmr20tun8dvju5vgudpf9vxe8jwhthrkn26fz96pawqfdy8nk05rsmrf8h94j26905e7n6sng8y059z8ykn2j5xcuw4xt846qj6x"
    hrp, encoding, payload = decode(upstream)
    result = {
        "upstream": {
            "address": upstream, "hrp": hrp, "checksum": {bech32.Encoding.BECH32: "bech32", bech32.Encoding.BECH32M: "bech32m"}.get(encoding), "length": len(payload),
            "version": payload[0], "signer": payload[1:33].hex(), "vtxo": payload[33:65].hex(),
        },
        "valid": [],
        "invalid": [],
    }
    signer = key("walletwatch ark server")
    for index in range(4):
        vtxo = key(f"walletwatch ark vtxo {index}")
        for prefix in ("ark", "tark"):
            result["valid"].append({
                "address": encode(prefix, b"\x00" + signer + vtxo), "hrp": prefix, "checksum": "bech32m",
                "signer": signer.hex(), "vtxo": vtxo.hex(), "script": "5120" + vtxo.hex(),
            })
    vtxo = key("walletwatch ark vtxo bech32")
    result["valid"].append({
        "address": encode("ark", b"\x00" + signer + vtxo, bech32.Encoding.BECH32), "hrp": "ark", "checksum": "bech32",
        "signer": signer.hex(), "vtxo": vtxo.hex(), "script": "5120" + vtxo.hex(),
    })

    off = next(x for x in range(1, 100) if not on_curve(x)).to_bytes(32, "big")
    assert on_curve(int.from_bytes(signer, "big")) and on_curve(int.from_bytes(vtxo, "big"))
    good = encode("tark", b"\x00" + signer + vtxo)
    broken = good[:20] + ("q" if good[20] != "q" else "p") + good[21:]
    result["invalid"] = [
        {"address": encode("tark", b"\x01" + signer + vtxo), "reason": "version 1"},
        {"address": encode("tark", signer + vtxo), "reason": "64 bytes"},
        {"address": encode("tark", b"\x00" + signer + vtxo + b"\x00"), "reason": "66 bytes"},
        {"address": encode("bark", b"\x00" + signer + vtxo), "reason": "prefix bark"},
        {"address": encode("tark", b"\x00" + off + vtxo), "reason": "signer key off the curve"},
        {"address": encode("tark", b"\x00" + signer + off), "reason": "VTXO key off the curve"},
        {"address": broken, "reason": "checksum"},
    ]
    assert decode(broken)[1] is None
    print(json.dumps(result, indent=1))


main()
