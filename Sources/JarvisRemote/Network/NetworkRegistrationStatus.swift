/// Where a Bonjour registration stands, as the system's replies tell it: the name it is
/// advertised under (which the system changes on a conflict, `Notes` becoming `Notes (2)`), or
/// the failure it reported after the registration started.
///
/// Platform-neutral so that the decisions are tested everywhere; the DNS-SD shim feeds it the
/// callback's flags, error and name.
public enum NetworkRegistrationStatus: Sendable, Hashable {
    /// Asked for, no reply yet.
    case pending
    /// Registered and active under `name`.
    case registered(name: String)
    /// The system reported a failure (a DNS-SD error code), or withdrew the service.
    case failed(code: Int32)

    /// `kDNSServiceFlagsAdd`: the reply adds (registers) the service rather than removing it.
    static let addFlag: UInt32 = 0x2
    /// `kDNSServiceErr_NameConflict`.
    static let nameConflict: Int32 = -65548

    /// The status a `DNSServiceRegisterReply` reports.
    /// - Parameters:
    ///   - flags: the reply's flags.
    ///   - errorCode: the reply's error (0 for none).
    ///   - name: the name the service is registered under.
    static func reply(flags: UInt32, errorCode: Int32, name: String?) -> NetworkRegistrationStatus {
        guard errorCode == 0 else { return .failed(code: errorCode) }
        guard flags & addFlag != 0, let name else { return .failed(code: nameConflict) }
        return .registered(name: name)
    }

    /// What to tell the person who asked to advertise `requested`; nil when nothing is worth
    /// saying (still pending, or registered under that very name).
    public func message(requested: String) -> String? {
        switch self {
        case .pending:
            return nil
        case .registered(let name):
            guard name != requested else { return nil }
            return
                "'\(requested)' is taken on the local network by another service; the agent is advertised as '\(name)' (use that name with --agent)"
        case .failed(let code):
            let reason = code == Self.nameConflict ? "a name conflict" : "DNS-SD error \(code)"
            return
                "the Bonjour advertisement of '\(requested)' failed after it started (\(reason)); the agent is no longer advertised: restart advertising, or reach it by address"
        }
    }
}
