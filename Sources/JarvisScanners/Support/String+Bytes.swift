extension String {
    /// Whether any of the text's UTF-8 bytes passes `test`.
    ///
    /// Names are checked byte by byte on every read (a `/` in a suite name, an upper-case
    /// letter); a native string's bytes are scanned in place, which is several times cheaper
    /// than walking its `utf8` view.
    func containsByte(where test: (UInt8) -> Bool) -> Bool {
        if let found = utf8.withContiguousStorageIfAvailable({ $0.contains(where: test) }) { return found }
        return utf8.contains(where: test)
    }
}
