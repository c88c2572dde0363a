import JarvisTransport
#if canImport(Network)
    import Dispatch
    import Foundation
    import JarvisCore
    import Network

    /// `NWBrowser` glue for ``NetworkDiscovery/browse(timeout:)``: finds `_jarvis._tcp` services,
    /// reads their TXT records, and resolves each to an IPv4 address and port by opening (and at
    /// once cancelling) a connection, the way Network framework resolves a service.
    enum NetworkBrowsing {
        static func browse(timeout: Duration) throws(JarvisError) -> [NetworkAgent] {
            let browser = NWBrowser(
                for: .bonjourWithTXTRecord(type: NetworkAgentAdvert.serviceType, domain: nil), using: NWParameters())
            let results = Locked<Set<NWBrowser.Result>>([])
            let problem = Locked<String?>(nil)
            browser.browseResultsChangedHandler = { current, _ in results.withLock { $0 = current } }
            browser.stateUpdateHandler = { state in
                switch state {
                case .failed(let error), .waiting(let error): problem.withLock { $0 = "\(error)" }
                default: break
                }
            }
            browser.start(queue: DispatchQueue(label: "jarvis.network.browse"))
            Thread.sleep(forTimeInterval: seconds(timeout))
            browser.cancel()
            let found = results.current
            if found.isEmpty, let problem = problem.current {
                throw JarvisError(
                    .unavailable,
                    "cannot browse the local network (\(problem)); allow Local Network access for this terminal in System Settings, Privacy & Security"
                )
            }
            var agents: [NetworkAgent] = []
            for result in found {
                guard case .service(let name, _, _, _) = result.endpoint else { continue }
                var pairs: [String: String] = [:]
                if case .bonjour(let record) = result.metadata {
                    for (key, value) in record.dictionary where pairs[key.lowercased()] == nil {
                        pairs[key.lowercased()] = value
                    }
                }
                guard let advert = NetworkAgentAdvert(serviceName: name, txtPairs: pairs),
                    let endpoint = resolve(result.endpoint, timeout: .seconds(3))
                else { continue }
                agents.append(NetworkAgent(serviceName: name, advert: advert, endpoint: endpoint))
            }
            return agents.sorted { $0.serviceName < $1.serviceName }
        }

        /// The service's IPv4 address and port (a link-local IPv6 address needs an interface
        /// suffix that a plain host:port cannot carry); nil when it does not answer in time.
        private static func resolve(_ service: NWEndpoint, timeout: Duration) -> Endpoint? {
            let parameters = NWParameters.tcp
            if let ip = parameters.defaultProtocolStack.internetProtocol as? NWProtocolIP.Options {
                ip.version = .v4
            }
            let connection = NWConnection(to: service, using: parameters)
            let resolved = Locked<Endpoint?>(nil)
            let settled = DispatchSemaphore(value: 0)
            connection.stateUpdateHandler = { [weak connection] state in
                switch state {
                case .ready:
                    if case .hostPort(.ipv4(let address), let port) = connection?.currentPath?.remoteEndpoint,
                        address.rawValue.count == 4
                    {
                        // Written from the raw bytes: the address's description may carry an
                        // interface suffix (`192.168.1.5%en0`) that `tcp://HOST:PORT` cannot.
                        let host = address.rawValue.map { String($0) }.joined(separator: ".")
                        resolved.withLock { $0 = .tcp(host: host, port: port.rawValue) }
                    }
                    settled.signal()
                case .failed, .cancelled: settled.signal()
                default: break
                }
            }
            connection.start(queue: DispatchQueue(label: "jarvis.network.resolve"))
            _ = settled.wait(timeout: .now() + seconds(timeout))
            connection.stateUpdateHandler = nil
            connection.cancel()
            return resolved.current
        }

        private static func seconds(_ duration: Duration) -> Double {
            duration.inSeconds
        }
    }
#endif
