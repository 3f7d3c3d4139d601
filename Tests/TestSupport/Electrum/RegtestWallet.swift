/// The BIP84 account of "abandon ... about" on the test networks, as the Bitcoin Dev Kit writes
/// it (bdkpython 3.1.1: `Descriptor.new_bip84(key, keychain, NetworkKind.TEST)`): the wallet the
/// Electrum tests watch on the simulator's regtest chain (a server of another chain is refused,
/// so a mainnet key cannot stand in for it).
public enum RegtestWallet {
    /// Its receive and change chains.
    public static let descriptors = [
        "wpkh([73c5da0a/84'/1'/0']tpubDC8msFGeGuwnKG9Upg7DM2b4DaRqg3CUZa5g8v2SRQ6K4NSkxUgd7HsL2XVWbVm39yBA4LAxysQAm397zwQSQoQgewGiYZqrA9DsP4zbQ1M/0/*)#2ag6nxcd",
        "wpkh([73c5da0a/84'/1'/0']tpubDC8msFGeGuwnKG9Upg7DM2b4DaRqg3CUZa5g8v2SRQ6K4NSkxUgd7HsL2XVWbVm39yBA4LAxysQAm397zwQSQoQgewGiYZqrA9DsP4zbQ1M/1/*)#mfdmwng4",
    ]
    /// A regtest address of nobody's key (BIP173's witness program on regtest).
    public static let stranger = "bcrt1qw508d6qejxtdg4y5r3zarvary0c5xw7kygt080"
}
