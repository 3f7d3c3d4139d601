extension Schema {
    /// v12: what an `evm` source's next pass starts from (SPEC.md section 26, "Cost").
    ///
    /// - `evm_sync`: per source, address and asset (`native` or the token contract), the balance
    ///   at the tip and at the confirmation depth and the nonce the last pass saw, and the block up
    ///   to which that history is stored whole and final. A pass asks for history only where
    ///   a figure changed, from `synced_block + 1` on.
    /// - `evm_pending`: the block of each stored transaction still above the confirmation depth.
    ///   A reorganisation that removes one leaves it pending until that height is final; only
    ///   then does it become failed (the ledger row itself has no block column).
    /// - `evm_unlisted_tokens`: token contracts seen moving tokens to or from a watched address
    ///   that are not in the source's `tokens` (never stored as assets; `doctor` lists them).
    static let version12: [String] = [
        """
        CREATE TABLE evm_sync (
            source TEXT NOT NULL,
            address TEXT NOT NULL CHECK (address GLOB '0x*' AND length(address) = 42),
            asset TEXT NOT NULL,
            balance NOT NULL CHECK (\(amountCheck("balance", .nonNegative))),
            counted NOT NULL CHECK (\(amountCheck("counted", .nonNegative))),
            nonce INTEGER NOT NULL CHECK (nonce >= 0),
            synced_block INTEGER NOT NULL CHECK (synced_block >= -1),
            PRIMARY KEY (source, address, asset)
        ) WITHOUT ROWID
        """,
        """
        CREATE TABLE evm_pending (
            source TEXT NOT NULL,
            asset TEXT NOT NULL,
            txid TEXT NOT NULL,
            block INTEGER NOT NULL CHECK (block >= 0),
            PRIMARY KEY (source, asset, txid)
        ) WITHOUT ROWID
        """,
        """
        CREATE TABLE evm_unlisted_tokens (
            source TEXT NOT NULL,
            contract TEXT NOT NULL CHECK (contract GLOB '0x*' AND length(contract) = 42),
            first_seen TEXT NOT NULL,
            PRIMARY KEY (source, contract)
        ) WITHOUT ROWID
        """,
    ]
}
