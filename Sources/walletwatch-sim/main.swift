// Placeholder until the simulator lands.
print("walletwatch-sim")
