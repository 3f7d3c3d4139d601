/// barkd 0.6's REST API for one simulated wallet, under `/barkd/<wallet>`: the read
/// endpoints walletwatch uses, bearer authentication, and barkd's error bodies.
struct BarkdRoutes: Sendable {
    let state: SimulatorState

    /// The endpoints served; any other path is barkd's 404, a known path with another method 405.
    static let endpoints: Set<String> = [
        "/api/v1/wallet/balance", "/api/v1/onchain/balance", "/api/v1/history", "/api/v1/wallet/history",
        "/api/v1/wallet/movements", "/api/v1/onchain/transactions", "/api/v1/wallet/vtxos", "/api/v1/onchain/utxos",
        "/api/v1/wallet/ark-info", "/api/v1/bitcoin/tip", "/api/v1/notifications/wait",
    ]

    func respond(to request: SimRequest, wallet name: String, path: String) async -> SimResponse {
        guard let wallet = await state.wallet(name) else {
            return .barkdError(404, "Route not found", resources: [request.path])
        }
        if path == "/ping" {
            return request.method == "GET" ? .text("pong") : SimResponse(status: 405, body: .bytes([]))
        }
        guard BarkdRoutes.endpoints.contains(path) else {
            return .barkdError(404, "Route not found", resources: [path])
        }
        guard request.method == "GET" else { return SimResponse(status: 405, body: .bytes([])) }
        if let token = wallet.token {
            guard let header = request.authorization, header.hasPrefix("Bearer ") else {
                return .barkdError(401, "missing auth token")
            }
            guard header.dropFirst("Bearer ".count) == token else { return .barkdError(401, "invalid auth token") }
        }
        do {
            return try await endpoint(path, request: request, wallet: wallet)
        } catch let error as SimulatorError {
            return .barkdError(error.code == .invalid ? 400 : 500, error.message)
        } catch {
            return .barkdError(500, "\(error)")
        }
    }

    private func endpoint(_ path: String, request: SimRequest, wallet: WalletState) async throws -> SimResponse {
        switch path {
        case "/api/v1/wallet/balance":
            if let balance = wallet.balanceIfKnown { return .json(balance) }
            // First request for a derived balance over a generated history: walk it here, not
            // inside the actor, which every other request needs meanwhile.
            let generated = wallet.generator.map { BalanceSum.total(of: HistoryStream(stored: [], generator: $0, filter: nil)) }
                ?? .zero
            await state.cacheGeneratedSum(generated, for: wallet.name)
            return .json((wallet.storedSum + generated).balance)
        case "/api/v1/onchain/balance":
            return .json(wallet.onchainBalance)
        case "/api/v1/history", "/api/v1/wallet/history", "/api/v1/wallet/movements":
            return try history(request, wallet: wallet)
        case "/api/v1/onchain/transactions":
            return .json(wallet.onchainTransactions)
        case "/api/v1/wallet/vtxos":
            let all: Bool
            switch request.parameters["all"] {
            case nil, "false": all = false
            case "true": all = true
            case let other?:
                throw SimulatorError(.invalid, "Failed to deserialize query string: all: provided string was not `true` or `false`: \(other)")
            }
            return .json(all ? wallet.vtxos : wallet.vtxos.filter { $0.state != .spent })
        case "/api/v1/onchain/utxos":
            return .json(wallet.utxos)
        case "/api/v1/wallet/ark-info":
            return .json(wallet.arkInfo)
        case "/api/v1/bitcoin/tip":
            return .json(SimJSON.object([.init("tip_height", .int(Int64(try await state.tipHeight(of: wallet.name))))]))
        default:
            return try await waitForNotifications(request, wallet: wallet.name)
        }
    }

    private func history(_ request: SimRequest, wallet: WalletState) throws -> SimResponse {
        var filter: BarkdPaymentMethod?
        switch (request.parameters["type"], request.parameters["value"]) {
        case (nil, nil):
            filter = nil
        case (let type?, let value?):
            guard let kind = BarkdPaymentMethod.Kind(rawValue: type) else {
                throw SimulatorError(.invalid, "invalid payment method: unknown type \(type)")
            }
            filter = BarkdPaymentMethod(kind, value)
        default:
            throw SimulatorError(.invalid, "`type` and `value` must be supplied together")
        }
        return SimResponse(status: 200, headers: [("Content-Type", "application/json")],
                           body: .history(wallet.history(filter: filter), edit: nil))
    }

    /// barkd's long poll: at once when notifications newer than `since` exist, otherwise
    /// when one is pushed, otherwise after the long-poll time with none.
    private func waitForNotifications(_ request: SimRequest, wallet: String) async throws -> SimResponse {
        let since: SimTime?
        if let text = request.parameters["since"] {
            guard let parsed = SimTime(iso8601: text) else {
                throw SimulatorError(.invalid, "Failed to deserialize query string: since: invalid date-time \(text)")
            }
            since = parsed
        } else {
            since = nil
        }
        let deadline = ContinuousClock.now + .milliseconds(Int64(state.longPollSeconds * 1000))
        while true {
            let found = try await state.notifications(of: wallet, since: since)
            if let last = found.last {
                return .json(WaitNotificationResponse(notifications: found.map(\.notification), lastPushedAt: last.pushedAt))
            }
            let remaining = deadline - ContinuousClock.now
            let stopping = await state.isStopping
            if remaining <= .zero || stopping {
                return .json(WaitNotificationResponse(notifications: [], lastPushedAt: since))
            }
            await withTaskGroup(of: Void.self) { group in
                group.addTask { await state.waitForNotification(of: wallet, since: since) }
                group.addTask { try? await Task.sleep(for: remaining) }
                await group.next()
                group.cancelAll()
            }
            try Task.checkCancellation()
        }
    }
}
