import TestSupport
import WalletWatchSim

extension TemporaryDirectory {
    /// Writes the token `t` and a config with one barkd source, `ark` (asset "Ark wallet"), on
    /// `simulator`'s wallet `ark`. `top` goes before the source (`database = ...`); `tokenFile`
    /// is how the config names the token file (an absolute path for a config copied elsewhere).
    func writeBarkdConfig(_ simulator: Simulator, top: String = "", tokenFile: String = "token") {
        write("token", "t")
        write("walletwatch.toml", """
            \(top)
            [[sources]]
            name = "ark"
            kind = "barkd"
            url = "\(simulator.barkdURL("ark"))"
            token_file = "\(tokenFile)"
            ark_asset = "Ark wallet"
            """)
    }
}
