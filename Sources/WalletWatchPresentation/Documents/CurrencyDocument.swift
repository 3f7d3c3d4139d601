import WalletWatchCore

/// The JSON shape of `currency list` and `currency add` (CLI.md, "Additions (SPEC sections 25-28)").
public enum CurrencyDocument {
    public static func json(_ definition: CurrencyDefinition) -> JSONValue {
        .object([
            "code": .string(definition.code),
            "decimals": .int(definition.decimals),
            "coingecko_id": .string(definition.coingeckoID),
            "name": .string(definition.name),
            "kind": .string(definition.kind.rawValue),
        ])
    }

    public static func json(_ definitions: [CurrencyDefinition]) -> JSONValue {
        .array(definitions.map(json))
    }
}
