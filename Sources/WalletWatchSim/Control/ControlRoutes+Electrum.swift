import Hummingbird

extension ControlRoutes {
    /// The Electrum face's routes: its endpoints, faults and request log (see the table on
    /// ``ControlRoutes``).
    func registerElectrum(on control: RouterGroup<SimRequestContext>) {
        control.get("electrum") { _, _ in
            guard let endpoints = await state.endpoints else {
                throw SimulatorError(.notFound, "no Electrum face: the scenario has no bitcoin section (a real chain)")
            }
            return try Self.reply(endpoints)
        }
        control.get("electrum/faults") { _, _ in try Self.reply(await state.electrumFaults.faults) }
        control.post("electrum/faults") { request, context in
            let fault = try await Self.body(ElectrumFault.self, request, context)
            try await state.addElectrumFault(fault)
            return try Self.reply(fault, status: .created)
        }
        control.delete("electrum/faults") { _, _ in
            await state.clearElectrumFaults()
            return Response(status: .noContent)
        }
        control.get("electrum/requests") { _, _ in try Self.reply(await state.electrumLog) }
        control.delete("electrum/requests") { _, _ in
            await state.resetElectrumRequests()
            return Response(status: .noContent)
        }
    }
}
