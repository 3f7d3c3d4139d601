#pragma version ~=0.4.3
# Sends on the ether it is paid, so that walletwatch's tests have internal transfers: native
# coin moved by a contract (a CALL with value inside a transaction), which no transaction's own
# `to` and `value` show. `forward_and_revert` pays out and then reverts: the payment is undone,
# yet a tracer sees the call (Erigon's ots_getInternalOperations lists it).


@external
@payable
def forward(_to: address):
    send(_to, msg.value)


@external
@payable
def split(_first: address, _second: address):
    # Two internal transfers in one transaction: half each, the odd wei to the second.
    half: uint256 = msg.value // 2
    send(_first, half)
    send(_second, msg.value - half)


@external
@payable
def forward_and_revert(_to: address):
    send(_to, msg.value)
    raise "forwarded, then reverted"
