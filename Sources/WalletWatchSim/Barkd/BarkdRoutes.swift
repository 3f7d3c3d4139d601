import Hummingbird

/// barkd 0.6's REST API for each simulated wallet, under `/barkd/:wallet`: the read endpoints
/// walletwatch uses, bearer authentication, and barkd's error bodies. A path barkd does not
/// serve is its 404; another method than GET on one it serves, 405.
struct BarkdRoutes {
    let state: SimulatorState

    func register(on router: Router<SimRequestContext>) {
        let barkd = router.group("barkd/:wallet").add(middleware: BarkdWalletMiddleware(state: state))
        barkd.on("ping") { request, context in
            request.method == .get ? context.text("pong") : Response(status: .methodNotAllowed)
        }
        let api = barkd.group("api/v1")
            .add(middleware: GetOnlyMiddleware(refusal: Response(status: .methodNotAllowed)))
            .add(middleware: BearerTokenMiddleware())
        api.on("wallet/balance") { _, context in try context.json(await balance(of: try wallet(context))) }
        api.on("onchain/balance") { _, context in try context.json(try wallet(context).onchainBalance) }
        for path in ["history", "wallet/history", "wallet/movements"] {
            api.on(RouterPath(path)) { request, context in try history(request, context) }
        }
        api.on("onchain/transactions") { _, context in try context.json(try wallet(context).onchainTransactions) }
        api.on("wallet/vtxos") { request, context in
            let vtxos = try wallet(context).vtxos
            switch request.uri.queryParameters["all"] {
            case nil, "false": return try context.json(vtxos.filter { $0.state != .spent })
            case "true": return try context.json(vtxos)
            case let other?:
                throw Self.badRequest("Failed to deserialize query string: all: provided string was not `true` or `false`: \(other)")
            }
        }
        api.on("onchain/utxos") { _, context in try context.json(try wallet(context).utxos) }
        api.on("wallet/ark-info") { _, context in try context.json(try wallet(context).arkInfo) }
        api.on("bitcoin/tip") { _, context in
            try context.json(TipBody(tipHeight: try await state.tipHeight(of: try wallet(context).name)))
        }
        api.on("notifications/wait") { request, context in try await waitForNotifications(request, context) }
        // Any other path of a wallet, including the bare prefixes of its API's paths.
        for path: RouterPath in ["", "api", "api/v1", "**"] {
            barkd.on(path) { request, context in
                let rest = request.uri.path.dropFirst("/barkd/".count + (try wallet(context).name.count))
                return .barkdError(.notFound, "Route not found", resources: [rest.isEmpty ? "/" : String(rest)])
            }
        }
    }

    private func wallet(_ context: SimRequestContext) throws -> WalletState {
        guard let wallet = context.wallet else { throw ErrorResponse(response: .barkdError(.notFound, "Route not found")) }
        return wallet
    }

    private static func badRequest(_ message: String) -> ErrorResponse {
        ErrorResponse(response: .barkdError(.badRequest, message))
    }

    /// The balance set, or the one the movements add up to. The first request for a derived
    /// balance over a generated history walks it here, not inside the actor that every other
    /// request needs meanwhile, and leaves the sum with the wallet.
    private func balance(of wallet: WalletState) async -> BarkdBalance {
        if let balance = wallet.balanceIfKnown { return balance }
        let generated = wallet.generator.map { BalanceSum.total(of: HistoryStream(stored: [], generator: $0, filter: nil)) } ?? .zero
        await state.cacheGeneratedSum(generated, for: wallet.name)
        return (wallet.storedSum + generated).balance
    }

    /// The movements, newest first, streamed; barkd's `type` + `value` filter.
    private func history(_ request: Request, _ context: SimRequestContext) throws -> Response {
        let query = request.uri.queryParameters
        var filter: BarkdPaymentMethod?
        switch (query["type"], query["value"]) {
        case (nil, nil):
            filter = nil
        case (let type?, let value?):
            guard let kind = BarkdPaymentMethod.Kind(rawValue: String(type)) else {
                throw Self.badRequest("invalid payment method: unknown type \(type)")
            }
            filter = BarkdPaymentMethod(kind, String(value))
        default:
            throw Self.badRequest("`type` and `value` must be supplied together")
        }
        let body = try wallet(context).history(filter: filter).responseBody(edit: context.fault)
        return Response(status: .ok, headers: [.contentType: "application/json"], body: body)
    }

    /// barkd's long poll: at once when notifications newer than `since` exist, otherwise
    /// when one is pushed, otherwise after the long-poll time with none.
    private func waitForNotifications(_ request: Request, _ context: SimRequestContext) async throws -> Response {
        let name = try wallet(context).name
        let since = try request.uri.queryParameters["since"].map { text in
            guard let since = SimTime(iso8601: String(text)) else {
                throw Self.badRequest("Failed to deserialize query string: since: invalid date-time \(text)")
            }
            return since
        }
        let deadline = ContinuousClock.now + .milliseconds(Int64(state.longPollSeconds * 1000))
        while true {
            let found = try await state.notifications(of: name, since: since)
            if let last = found.last {
                return try context.json(WaitNotificationResponse(notifications: found.map(\.notification), lastPushedAt: last.pushedAt))
            }
            let remaining = deadline - ContinuousClock.now
            let stopping = await state.isStopping
            if remaining <= .zero || stopping {
                return try context.json(WaitNotificationResponse(notifications: [], lastPushedAt: since))
            }
            await withTaskGroup(of: Void.self) { group in
                group.addTask { await state.waitForNotification(of: name, since: since) }
                group.addTask { try? await Task.sleep(for: remaining) }
                await group.next()
                group.cancelAll()
            }
            try Task.checkCancellation()
        }
    }
}

/// `{"tip_height": N}`: barkd's `TipResponse`, and the control API's tip bodies.
struct TipBody: Codable, Sendable {
    var tipHeight: Int
    private enum CodingKeys: String, CodingKey { case tipHeight = "tip_height" }
}
