// TEMPORARY scaffold (not committed): replaced by the real defaults scanner branch.
import Foundation
import JarvisCore

public struct DefaultsScanner: PreferenceScanner {
    public let id = "defaults"
    let folder: URL
    public var info: ScannerInfo { ScannerInfo(displayName: "Defaults suites") }
    public static func defaults(suites: [String] = [], includeSystemDomains: Bool = false) -> DefaultsScanner {
        DefaultsScanner(folder: URL(fileURLWithPath: NSHomeDirectory() + "/.config"))
    }
    public static func defaults(folder: URL) -> DefaultsScanner { DefaultsScanner(folder: folder) }
    public func containers() throws -> [ContainerInfo] {
        try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".plist") }.map { ContainerInfo(String($0.dropLast(6))) }
    }
    func load(_ c: String) throws -> [String: Any] {
        guard let data = try? Data(contentsOf: folder.appendingPathComponent(c + ".plist")) else { return [:] }
        return try PropertyListSerialization.propertyList(from: data, format: nil) as? [String: Any] ?? [:]
    }
    static func convert(_ any: Any) -> PreferenceValue {
        switch any {
        case let s as String: return .string(s)
        case let d as Date: return .date(d)
        case let d as Data: return .data(d)
        case let a as [Any]: return .array(a.map(convert))
        case let d as [String: Any]: return .dictionary(d.mapValues(convert))
        case let n as NSNumber:
            let t = String(cString: n.objCType)
            if t == "c" || t == "B" { return .boolean(n.boolValue) }
            if t == "d" || t == "f" { return .real(n.doubleValue) }
            return .integer(n.int64Value)
        default: return .string("\(any)")
        }
    }
    static func back(_ v: PreferenceValue) -> Any {
        switch v {
        case .string(let s): return s
        case .integer(let i): return NSNumber(value: i)
        case .real(let d): return NSNumber(value: d)
        case .boolean(let b): return NSNumber(value: b)
        case .date(let d): return d
        case .data(let d): return d
        case .array(let a): return a.map(back)
        case .dictionary(let d): return d.mapValues(back)
        }
    }
    public func read(_ request: ReadRequest) throws -> [ScannedEntry] {
        try load(request.container).map { ScannedEntry(key: $0.key, value: Self.convert($0.value)) }
    }
    public func write(_ request: WriteRequest) throws {
        var d = try load(request.container)
        switch request.change { case .set(let v): d[request.key] = Self.back(v); case .delete: d[request.key] = nil }
        try PropertyListSerialization.data(fromPropertyList: d, format: .xml, options: 0).write(to: folder.appendingPathComponent(request.container + ".plist"), options: .atomic)
    }
}
