/// Version strings the CLI prints.
enum ProtocolInfo {
    static let toolVersion = "0.1.0"
}
