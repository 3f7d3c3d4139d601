#pragma version ~=0.4.3
# A minimal ERC-20 token for walletwatch's tests, written for them (vyper's own
# examples/tokens/ERC20.vy ships neither in vyper's wheel nor in an sdist on PyPI, the only
# index reachable here). It is the standard's whole surface (EIP-20) and nothing else:
# `decimals` is a constructor argument, so that a 6-decimal stablecoin and an 18-decimal token
# come from the same code; `mint` lets the deployer create units for a scenario. Arithmetic is
# checked: a transfer of more than the sender holds reverts (the tests' failed transaction).

from ethereum.ercs import IERC20
from ethereum.ercs import IERC20Detailed

implements: IERC20
implements: IERC20Detailed

name: public(String[32])
symbol: public(String[32])
decimals: public(uint8)
totalSupply: public(uint256)
balanceOf: public(HashMap[address, uint256])
allowance: public(HashMap[address, HashMap[address, uint256]])
minter: public(address)


@deploy
def __init__(_name: String[32], _symbol: String[32], _decimals: uint8):
    self.name = _name
    self.symbol = _symbol
    self.decimals = _decimals
    self.minter = msg.sender


@external
def transfer(_to: address, _value: uint256) -> bool:
    self.balanceOf[msg.sender] -= _value
    self.balanceOf[_to] += _value
    log IERC20.Transfer(sender=msg.sender, receiver=_to, value=_value)
    return True


@external
def transferFrom(_from: address, _to: address, _value: uint256) -> bool:
    self.allowance[_from][msg.sender] -= _value
    self.balanceOf[_from] -= _value
    self.balanceOf[_to] += _value
    log IERC20.Transfer(sender=_from, receiver=_to, value=_value)
    return True


@external
def approve(_spender: address, _value: uint256) -> bool:
    self.allowance[msg.sender][_spender] = _value
    log IERC20.Approval(owner=msg.sender, spender=_spender, value=_value)
    return True


@external
def mint(_to: address, _value: uint256):
    # New units come from the zero address, as most tokens log a mint.
    assert msg.sender == self.minter, "only the minter mints"
    self.totalSupply += _value
    self.balanceOf[_to] += _value
    log IERC20.Transfer(sender=empty(address), receiver=_to, value=_value)
