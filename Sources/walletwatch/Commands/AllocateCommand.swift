import ArgumentParser
import WalletWatchCore
import WalletWatchEngine
import WalletWatchPresentation

struct AllocateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "allocate",
        abstract: "Earmark parts of an asset for goals.",
        discussion: """
            Each GOAL=AMOUNT sets that goal's target on the asset; goals not named keep theirs. \
            AMOUNT is in the asset's currency (0.25, 25000sat for BTC) or a share of its current \
            balance (40%). GOAL=0 removes an allocation. GOAL=100% dedicates the asset to one goal, \
            also while its balance is 0: Rule 1 then sends each new confirmed deposit to that goal. \
            The targets together may not exceed the balance (exit 65, naming the total, the \
            balance and the excess); nothing changes then. Every changed target is written to \
            the allocation history (`walletwatch asset history`).

            Examples:
              walletwatch allocate "Ark wallet" House=60% "Emergency fund"=40%
              walletwatch allocate Cash House=250.00
              walletwatch allocate "Cold storage" Vacation=0
              walletwatch allocate "New wallet" House=100%
            """)

    @OptionGroup var global: GlobalOptions
    @Argument(help: "The asset.") var asset: String
    @Argument(help: ArgumentHelp("GOAL=AMOUNT pairs.", valueName: "goal=amount")) var assignments: [String] = []
    @OptionGroup var output: JSONOption

    func validate() throws {
        guard !assignments.isEmpty else { throw ValidationError("give at least one GOAL=AMOUNT, e.g. House=40%") }
        _ = try parsedAssignments()
    }

    /// Splits at the last '=' so that a goal name may itself contain one.
    func parsedAssignments() throws -> [(goal: String, amount: String)] {
        try assignments.map { text in
            guard let equals = text.lastIndex(of: "="), equals != text.startIndex, text.index(after: equals) != text.endIndex else {
                throw ValidationError("'\(text)' is not GOAL=AMOUNT; write it like House=0.25 or House=40%")
            }
            return (String(text[..<equals]), String(text[text.index(after: equals)...]))
        }
    }

    func run() async throws {
        let context = try CommandContext.load(global)
        let overview = try context.engine.allocations.allocate(asset: asset, assignments: try parsedAssignments())
        if output.json {
            Output.json(AssetDocument.detail(overview))
        } else {
            AssetOutput.printDetail(overview)
        }
    }
}
