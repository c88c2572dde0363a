/// How much a container stores, measured one way for `jarvis check` and for every face that
/// names a large container (`jarvis ls`, the terminal and browser inspectors, the in-app panel).
///
/// The measure is the stored values written as JSON, keys included, counted with
/// ``PreferenceValue/minimumJSONBytes(countingPast:)``: a lower bound close to what a suite's
/// file holds, never more work than ``countedBytes`` bytes per value. Registered defaults,
/// unset catalog keys and masked secrets (whose values never leave the agent) count nothing.
public struct ContainerSize: Sendable, Hashable {
    /// The bytes counted so far (past ``countedBytes`` it is only some larger number).
    public private(set) var bytes = 0

    /// Past this a face names the container as large: half of what tvOS allows, so there is
    /// room to act before an app is stopped.
    public static let largeBytes = 512 * 1024
    /// Past this `jarvis check` reports the container: tvOS stops an app whose defaults pass
    /// 1 MB.
    public static let tooLargeBytes = 1 << 20
    /// How far one value is counted: enough to tell any size the faces and the check name.
    public static let countedBytes = tooLargeBytes + 1

    /// An empty size.
    public init() {}

    /// The size of `items` that belong to one container.
    public init(_ items: some Sequence<PreferenceItem>) {
        for item in items { add(item) }
    }

    /// A size of `bytes` counted bytes, as items' ``counted(_:)`` add up (a face that keeps
    /// each item's count, to change one item's without counting the others again).
    public init(bytes: Int) {
        self.bytes = bytes
    }

    /// Counts one item of the container: a stored value and its key.
    public mutating func add(_ item: PreferenceItem) {
        bytes += Self.counted(item)
    }

    /// What one item adds to its container's size: its key and stored value, or nothing.
    public static func counted(_ item: PreferenceItem) -> Int {
        guard item.layer == .stored, item.catalog?.isUnset != true, let value = item.value else { return 0 }
        return item.address.key.utf8.count + value.minimumJSONBytes(countingPast: countedBytes)
    }

    /// Whether faces name the container as large (over ``largeBytes``).
    public var isLarge: Bool { bytes > Self.largeBytes }

    /// Whether `jarvis check` reports the container (over ``tooLargeBytes``).
    public var isTooLarge: Bool { bytes > Self.tooLargeBytes }

    /// The size for a person: `612 KB`, `1.4 MB`.
    public var text: String {
        if bytes < 1024 { return "\(bytes) bytes" }
        if bytes < 1024 * 1024 { return "\(bytes / 1024) KB" }
        let tenths = bytes * 10 / (1024 * 1024)
        return "\(tenths / 10).\(tenths % 10) MB"
    }

    /// Why a large container matters, for every face to show beside it; nil when it is not
    /// large.
    public var warning: String? {
        guard isLarge else { return nil }
        return "large: about \(text) of values; tvOS stops an app whose defaults pass 1 MB, and UserDefaults reads a suite whole at launch"
    }

    /// The sizes of every container in `items`, by container address (key empty).
    public static func byContainer(_ items: some Sequence<PreferenceItem>) -> [PreferenceAddress: ContainerSize] {
        var sizes: [PreferenceAddress: ContainerSize] = [:]
        for item in items {
            let place = PreferenceAddress(scanner: item.address.scanner, container: item.address.container, key: "")
            sizes[place, default: ContainerSize()].add(item)
        }
        return sizes
    }
}
