import Foundation
import JarvisCore

/// Finding a name under the Unicode spelling it is stored in, so that files answer as every
/// other name does (see "One spelling of a name" in PROTOCOL.md): `señor.json` asked for with
/// `ñ` (NFC) opens a file whose name was written with `n` + U+0303 (NFD), and the other way
/// round. Apple's volumes already find either spelling; Linux's compare bytes, so there a
/// name that is not found as it is spelt is looked for among its folder's entries.
extension ServedFolder {
    /// `relative` (a name or `a/b` path under the folder) as it is stored, component by
    /// component: a component found as it is spelt is kept; one that is not is replaced by
    /// the entry of its folder that is the same name in another spelling, if there is one.
    /// An ASCII name has no other spelling and is returned at once (`ñ`, U+00F1, has one).
    func storedSpelling(of relative: String) -> String {
        guard !relative.utf8.allSatisfy({ $0 < 0x80 }) else { return relative }
        let root = currentRealPath.hasSuffix("/") ? currentRealPath : currentRealPath + "/"
        var status = stat()
        if lstat(root + relative, &status) == 0 { return relative }
        var folder = root
        var parts: [String] = []
        for component in relative.split(separator: "/", omittingEmptySubsequences: false).map(String.init) {
            var name = component
            if !name.utf8.allSatisfy({ $0 < 0x80 }), lstat(folder + name, &status) != 0,
                let entries = try? FileManager.default.contentsOfDirectory(atPath: folder),
                // `==` compares canonically equivalent spellings as one; the first entry in
                // byte order wins when a folder holds several spellings.
                let stored = entries.sorted(by: { Array($0.utf8).lexicographicallyPrecedes($1.utf8) })
                    .first(where: { $0 == name })
            {
                name = stored
            }
            parts.append(name)
            folder += name + "/"
        }
        return parts.joined(separator: "/")
    }
}
