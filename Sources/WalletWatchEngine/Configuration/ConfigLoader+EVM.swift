import Foundation
import TOMLKit
import WalletWatchCore
import WalletWatchNet

extension ConfigLoader {
    /// An `evm` source's keys (SPEC.md section 26). `url` was read by the caller unless it comes
    /// from `url_file` or `url_env` (a provider's URL that holds a key), which it then replaces.
    static func evm(_ reader: inout TableReader, name: String, folder: String) throws -> EVMSourceConfig {
        let chainText = try reader.string("chain")
        let chainIDValue = try reader.int("chain_id", in: 1...Int(Int32.max))
        let nativeText = try reader.string("native")
        let chain: EVMChain?
        let chainID: Int64
        let native: String
        switch (chainText, chainIDValue) {
        case (let text?, nil):
            guard let known = EVMChain(rawValue: text) else {
                throw reader.error("chain", "'\(DisplaySafety.escaped(text))' is not accepted; use \(EVMChain.allCases.map { "\"\($0)\"" }.joined(separator: ", ")), or chain_id = N with native = \"CODE\"")
            }
            if nativeText != nil { throw reader.error("native", "applies with chain_id only; \(known) pays its fees in \(known.native)") }
            (chain, chainID, native) = (known, known.chainID, known.native)
        case (nil, let id?):
            guard let nativeText else { throw reader.error("native", "is missing; a chain given by chain_id needs its coin, such as native = \"XDAI\" (a currency of `walletwatch currency list`)") }
            let code = nativeText.uppercased()
            guard (2...10).contains(code.count), code.allSatisfy({ $0.isASCII && ($0.isUppercase || $0.isNumber || $0 == ".") }) else {
                throw reader.error("native", "'\(DisplaySafety.escaped(nativeText))' is not a currency code (2 to 10 of A-Z, 0-9, '.')")
            }
            chain = EVMChain.allCases.first { $0.chainID == Int64(id) }
            (chainID, native) = (Int64(id), code)
        case (nil, nil):
            throw reader.error("chain", "is missing; use \(EVMChain.allCases.map { "\"\($0)\"" }.joined(separator: ", ")), or chain_id = N with native = \"CODE\"")
        case (.some, .some):
            throw reader.error("chain_id", "and chain are both set; use chain for a named chain, chain_id for any other")
        }
        guard let addressTexts = try reader.strings("addresses"), !addressTexts.isEmpty else {
            throw reader.error("addresses", "is missing; list the addresses to watch, such as addresses = [\"0x52908400098527886E0F7030069857D2E4169EE7\"]")
        }
        var addresses: [EVMAddress] = []
        for text in addressTexts {
            let address: EVMAddress
            do { address = try EVMAddress(checking: text) } catch {
                throw ConfigError(file: reader.file, message: "\(reader.path).addresses: \(error.description)", kind: .refused)
            }
            guard !addresses.contains(address) else { throw reader.error("addresses", "lists \(address.checksummed) twice") }
            addresses.append(address)
        }
        let chainLabel = chain.map { "\($0.rawValue) (\($0.chainID))" } ?? "chain \(chainID)"
        let nativeAsset = try reader.assetName("asset") ?? "\(name) \(native)"
        var tokenAssets: [String: String] = [:]
        if var table = try reader.table("token_assets") {
            for key in table.keys {
                guard let asset = try table.assetName(key) else { continue }
                tokenAssets[key.uppercased()] = asset
            }
            try table.rejectUnknownKeys()
        }
        var tokens: [EVMSourceConfig.Token] = []
        for (index, entry) in try reader.array("tokens").enumerated() {
            let (contract, currency) = try token(entry, index: index, chain: chain, chainLabel: chainLabel, reader)
            guard !tokens.contains(where: { $0.contract == contract }) else {
                throw reader.error("tokens", "lists the contract \(contract.checksummed) twice")
            }
            guard !tokens.contains(where: { $0.currency == currency }), currency != native else {
                throw reader.error("tokens", "lists \(currency) twice; a source has one asset per currency")
            }
            tokens.append(EVMSourceConfig.Token(contract: contract, currency: currency, asset: tokenAssets[currency] ?? "\(name) \(currency)"))
        }
        if let unused = tokenAssets.keys.sorted().first(where: { code in !tokens.contains { $0.currency == code } }) {
            throw reader.error("token_assets", "names an asset for \(unused), which is not in tokens")
        }
        let historyText = try reader.string("history") ?? EVMSourceConfig.History.etherscan.rawValue
        guard let history = EVMSourceConfig.History(rawValue: historyText) else {
            throw reader.error("history", "'\(DisplaySafety.escaped(historyText))' is not accepted; use \"etherscan\" (an Etherscan or Blockscout API), \"otterscan\" (your Erigon node) or \"none\" (your node alone)")
        }
        var historyURL = try reader.string("history_url")
        let keyFile = try reader.string("api_key_file")
        let keyEnv = try reader.string("api_key_env")
        if keyFile != nil && keyEnv != nil { throw reader.error("api_key_file", "and api_key_env are both set; use one of them") }
        if history != .etherscan {
            if historyURL != nil { throw reader.error("history_url", "applies to history = \"etherscan\" only") }
            if keyFile != nil || keyEnv != nil { throw reader.error(keyFile != nil ? "api_key_file" : "api_key_env", "applies to history = \"etherscan\" only") }
        } else {
            let url = historyURL ?? EVMSourceConfig.etherscanURL
            guard let parsed = URL(string: url), let scheme = parsed.scheme?.lowercased(), ["http", "https"].contains(scheme), parsed.host != nil else {
                throw reader.error("history_url", "'\(URLRedaction.redact(url))' is not accepted; use an http:// or https:// URL of an Etherscan-compatible /api")
            }
            historyURL = url
        }
        var confirmations: Int? = nil
        if let value = reader.rawValue("confirmations") {
            if value.type == .string, value.string == "finalized" {
                confirmations = nil
            } else if value.type == .int, let count = value.int, (1...10_000).contains(count) {
                confirmations = count
            } else {
                throw reader.error("confirmations", "is not accepted; use \"finalized\" (the default) or a block count from 1 to 10000, such as 12")
            }
        }
        return EVMSourceConfig(
            chainName: chain?.rawValue, chainID: chainID, native: native, urlSecret: nil, addresses: addresses, tokens: tokens,
            history: history, historyURL: historyURL,
            apiKey: keyFile.map { .file(absolute($0, relativeTo: folder)) } ?? keyEnv.map { .environment($0) },
            confirmations: confirmations, nativeAsset: nativeAsset)
    }

    /// One entry of `tokens`: a built-in code known on this chain, or `{ contract, currency }`.
    private static func token(_ entry: any TOMLValueConvertible, index: Int, chain: EVMChain?, chainLabel: String,
                              _ reader: TableReader) throws -> (EVMAddress, String) {
        if let code = entry.string?.uppercased() {
            guard let chain else {
                throw reader.error("tokens", "names \(DisplaySafety.escaped(code)), but \(chainLabel) has no built-in tokens; write { contract = \"0x...\", currency = \"CODE\" }")
            }
            guard let contract = chain.builtInTokens[code] else {
                let known = chain.builtInTokens.keys.sorted()
                throw reader.error("tokens", "'\(DisplaySafety.escaped(code))' is not a built-in token on \(chainLabel) (\(known.isEmpty ? "it has none" : "built in: \(known.joined(separator: ", "))")); write { contract = \"0x...\", currency = \"CODE\" } for any other")
            }
            return (contract, code)
        }
        guard let table = entry.table else {
            throw reader.error("tokens", "entry \(index + 1) is not accepted; write a built-in code such as \"USDC\" or { contract = \"0x...\", currency = \"CODE\" }")
        }
        var inner = TableReader(table: table, path: "\(reader.path).tokens[\(index + 1)]", file: reader.file)
        guard let contractText = try inner.string("contract") else { throw inner.error("contract", "is missing; give the token's contract address") }
        guard let currencyText = try inner.string("currency") else { throw inner.error("currency", "is missing; give the token's currency code, such as \"USDC\" or one of `walletwatch currency add`") }
        try inner.rejectUnknownKeys()
        let contract: EVMAddress
        do { contract = try EVMAddress(checking: contractText) } catch {
            throw ConfigError(file: reader.file, message: "\(inner.path).contract: \(error.description)", kind: .refused)
        }
        let code = currencyText.uppercased()
        guard (2...10).contains(code.count), code.allSatisfy({ $0.isASCII && ($0.isUppercase || $0.isNumber || $0 == ".") }) else {
            throw inner.error("currency", "'\(DisplaySafety.escaped(currencyText))' is not a currency code (2 to 10 of A-Z, 0-9, '.')")
        }
        return (contract, code)
    }
}
