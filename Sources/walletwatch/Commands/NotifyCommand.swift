import ArgumentParser
import WalletWatchCore
import WalletWatchEngine
import WalletWatchPresentation

struct NotifyCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "notify",
        abstract: "Webhook notifications: send a test event, list what was delivered.",
        discussion: """
            Each [[notify]] entry of the config is a webhook: `run` and `serve` POST it the events it subscribed to (all unless it lists `events`): transaction.new, transaction.confirmed, transaction.failed, allocation.auto, goal.reached, month.goal_closed, source.failing, source.recovered and plan.due. An event is written to an outbox in the same database transaction as the change it reports, so none is lost when the daemon stops or crashes, and none is sent for a change that did not happen. A source's first successful pass, which creates its assets, stores their history without announcing it; from then on every new transaction is announced, also the first deposit of a wallet watched while empty.

            The body is {"id", "event", "at", "data"}; the headers X-Walletwatch-Event and X-Walletwatch-Delivery (the event id: the same on every retry, so a receiver can drop a duplicate) come with it, and with a secret_file also X-Walletwatch-Signature: sha256=<hex HMAC-SHA256 of the body, keyed by the file's content without its trailing newline>. A 2xx answer delivers; anything else is retried 30 s later, then after twice as long each time (at most 1 h apart) for 24 h, after which the delivery is failed. A target receives its events in order: a later one waits while an earlier one is retried.

            Examples:
              walletwatch notify test phone
              walletwatch notify log --failed
            """,
        subcommands: [Test.self, Log.self])

    struct Test: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "test",
            abstract: "Send a test event to one target now.",
            discussion: """
                Sends an event named `test` to the [[notify]] entry NAME at once, signed like every other event, and says whether the target acknowledged it (a 2xx answer). It is not queued: when it fails, the command exits 1 with the reason (the HTTP status, or why no connection was made), and `notify log` keeps it as failed. Use it after editing the config, or to check a receiver's signature verification.

                Example:
                  walletwatch notify test phone
                """)

        @OptionGroup var global: GlobalOptions
        @Argument(help: ArgumentHelp("The name of a [[notify]] entry.", valueName: "name")) var name: String

        func run() async throws {
            let context = try CommandContext.load(global)
            let delivery = try await context.engine.notifier.test(name)
            guard delivery.status == .delivered else {
                throw NotDelivered(message: "notify test '\(delivery.target)': not delivered: \(delivery.lastError ?? "no answer")")
            }
            Output.line("delivered test event \(delivery.id) to '\(delivery.target)'")
        }
    }

    struct Log: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "log",
            abstract: "List the outbox's deliveries: pending, delivered, failed.",
            discussion: """
                Every event sent or still to send, one line per event and target, oldest first: its id (the X-Walletwatch-Delivery header), the event, the target, its status, how many attempts were made, when the event was written, when it was delivered, and the last attempt's error. Pending deliveries are sent by `run` or `serve`; a command alone (`ingest`, `tx add`) only writes them. --failed lists only the deliveries given up after 24 h of retries (or whose target left the config).

                Examples:
                  walletwatch notify log
                  walletwatch notify log --failed --json
                """)

        @OptionGroup var global: GlobalOptions
        @Flag(help: "Only the deliveries that failed.") var failed = false
        @OptionGroup var output: JSONOption

        func run() throws {
            let context = try CommandContext.load(global)
            let deliveries = try context.engine.notifier.log(failedOnly: failed)
            if output.json {
                Output.json(NotificationDocument.log(deliveries))
                return
            }
            guard !deliveries.isEmpty else {
                Output.line(failed ? "no failed deliveries" : "no notifications yet: add a [[notify]] entry to the config (see the README)")
                return
            }
            let zone = context.engine.preferences.displayTimeZone
            var table = TextTable([.init("CREATED"), .init("EVENT"), .init("TARGET"), .init("STATUS"), .init("ATTEMPTS", .right),
                                   .init("DELIVERED"), .init("ID"), .init("LAST ERROR")])
            for delivery in deliveries {
                table.add([Display.time(delivery.createdAt, zone), delivery.event, delivery.target, delivery.status.rawValue,
                           String(delivery.attempts), delivery.deliveredAt.map { Display.time($0, zone) } ?? "", delivery.id,
                           delivery.lastError ?? ""])
            }
            Output.lines(table.render())
        }
    }
}

/// A notification that was not delivered: a runtime failure (exit 1), its reason in one line.
struct NotDelivered: Classified {
    let message: String
    var description: String { message }
    var kind: ErrorKind { .runtime }
}
