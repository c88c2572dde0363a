import Foundation
import JarvisCore

/// One change to a suite on a running Simulator device, for a ``SimulatorDefaultsEditor``.
public struct SimulatorDefaultsEdit: Sendable, Hashable {
    /// The device's UDID.
    public var udid: String
    /// The suite's plist file, a path on this Mac (the Simulator shares the Mac's file system).
    public var plistPath: String
    /// The key to change.
    public var key: String
    /// What to do with it: the same change the hub asked of the scanner.
    public var change: WriteRequest.Change

    /// An edit of `key` in the suite stored at `plistPath` on device `udid`.
    public init(udid: String, plistPath: String, key: String, change: WriteRequest.Change) {
        self.udid = udid
        self.plistPath = plistPath
        self.key = key
        self.change = change
    }
}

/// How a suite on a running Simulator device is edited.
///
/// A booted device runs its own preferences daemon, which keeps the suites of running apps
/// in memory: a plist edited on disk is not seen by the app and is overwritten when the app
/// next saves. So an edit must go through that device's daemon, which only the device's own
/// `defaults` tool reaches (``SimctlDefaultsEditor``); where that cannot run, the edit is
/// refused (``RefusingDefaultsEditor``). Shut-down devices never get here: their files are
/// edited directly.
public protocol SimulatorDefaultsEditor: Sendable {
    /// Applies the edit, returning once the device's daemon has stored it.
    /// - Throws: ``JarvisError``, `.readOnly` when edits cannot be made here, `.storage` when
    ///   the device's tool failed.
    func apply(_ edit: SimulatorDefaultsEdit) throws(JarvisError)
}

/// Refuses every edit of a running device, saying what to do instead: used where `xcrun`
/// does not exist (Linux, a Mac without Xcode).
public struct RefusingDefaultsEditor: SimulatorDefaultsEditor {
    /// Why edits are refused here, e.g. "xcrun is not available on this machine".
    public var reason: String

    /// An editor that refuses, giving `reason`.
    public init(reason: String) {
        self.reason = reason
    }

    /// Always throws `.readOnly` with what to do instead.
    public func apply(_ edit: SimulatorDefaultsEdit) throws(JarvisError) {
        throw JarvisError(
            .readOnly,
            "cannot edit '\(edit.key)': Simulator device \(edit.udid) is booted, and its preferences daemon keeps the "
                + "suites of running apps in memory, so a file edited now would not be seen and could be overwritten; "
                + "the device's own `defaults` tool cannot be run here (\(reason)). Embed the Jarvis agent in the app, "
                + "or shut the device down (`xcrun simctl shutdown \(edit.udid)`) and edit again")
    }
}
