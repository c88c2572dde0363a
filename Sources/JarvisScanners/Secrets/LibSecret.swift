#if !canImport(Security)
    import Foundation
    import JarvisCore

    /// libsecret's synchronous C API, loaded at run time with `dlopen`, so that Jarvis builds and
    /// runs where libsecret is absent. Every C pointer of the Secret Service lives in this file;
    /// the rest sees only ``SecretItem`` values, whose ids are the items' object paths.
    ///
    /// Rules kept here: every returned pointer is checked before use, every reference taken is
    /// released on every path, every `GError` becomes a ``JarvisError`` with its message.
    final class LibSecret: @unchecked Sendable {
        // The function pointers are immutable after `init`; `calls` serializes every use of
        // libsecret, whose objects are not meant to be shared between threads mid-call.

        /// The library, loaded once per process; the error says what to install when it is absent.
        static let shared: Result<LibSecret, JarvisError> = Result { () throws(JarvisError) in try LibSecret() }

        private typealias Raw = UnsafeMutableRawPointer
        private typealias ErrorOut = UnsafeMutablePointer<Raw?>
        private typealias CText = UnsafePointer<CChar>

        private let serviceGetSync: @convention(c) (Int32, Raw?, ErrorOut?) -> Raw?
        private let collectionForAliasSync: @convention(c) (Raw?, CText?, Int32, Raw?, ErrorOut?) -> Raw?
        private let collectionSearchSync: @convention(c) (Raw?, Raw?, Raw?, Int32, Raw?, ErrorOut?) -> Raw?
        private let itemForPathSync: @convention(c) (Raw?, CText?, Int32, Raw?, ErrorOut?) -> Raw?
        private let itemGetAttributes: @convention(c) (Raw?) -> Raw?
        private let itemGetLabel: @convention(c) (Raw?) -> UnsafeMutablePointer<CChar>?
        private let itemGetSecret: @convention(c) (Raw?) -> Raw?
        private let itemSetSecretSync: @convention(c) (Raw?, Raw?, Raw?, ErrorOut?) -> Int32
        private let itemCreateSync: @convention(c) (Raw?, Raw?, Raw?, CText?, Raw?, Int32, Raw?, ErrorOut?) -> Raw?
        private let itemDeleteSync: @convention(c) (Raw?, Raw?, ErrorOut?) -> Int32
        private let valueGet: @convention(c) (Raw?, UnsafeMutablePointer<Int>?) -> CText?
        private let valueNew: @convention(c) (CText?, Int, CText?) -> Raw?
        private let valueUnref: @convention(c) (Raw?) -> Void
        private let schemaNewv: @convention(c) (CText?, Int32, Raw?) -> Raw?
        private let schemaUnref: @convention(c) (Raw?) -> Void
        private let proxyObjectPath: @convention(c) (Raw?) -> CText?
        private let hashTableNewFull: @convention(c) (Raw?, Raw?, Raw?, Raw?) -> Raw?
        private let hashTableInsert: @convention(c) (Raw?, Raw?, Raw?) -> Int32
        private let hashTableGetKeys: @convention(c) (Raw?) -> Raw?
        private let hashTableLookup: @convention(c) (Raw?, UnsafeRawPointer?) -> Raw?
        private let hashTableUnref: @convention(c) (Raw?) -> Void
        private let listFree: @convention(c) (Raw?) -> Void
        private let objectUnref: @convention(c) (Raw?) -> Void
        private let errorFree: @convention(c) (Raw?) -> Void
        private let gFree: @convention(c) (Raw?) -> Void
        private let strdup: @convention(c) (CText?) -> UnsafeMutablePointer<CChar>?
        // Passed to GLib as callbacks, never called from Swift.
        private let strHash: Raw
        private let strEqual: Raw
        private let freeCallback: Raw
        private let calls = Locked<Void>(())

        // libsecret's flag values (stable C enums).
        private static let openSession: Int32 = 1 << 1
        private static let searchAll: Int32 = 1 << 1
        private static let searchUnlock: Int32 = 1 << 2
        private static let searchLoadSecrets: Int32 = 1 << 3
        /// The schema `secret-tool` and most applications use for generic passwords.
        private static let schemaName = "org.freedesktop.Secret.Generic"

        private init() throws(JarvisError) {
            guard let handle = dlopen("libsecret-1.so.0", RTLD_NOW | RTLD_LOCAL) else {
                let detail = dlerror().map { String(cString: $0) } ?? "not found"
                throw JarvisError(
                    .unavailable,
                    "libsecret is not installed (\(detail)); install libsecret-1-0 (Debian, Ubuntu) or libsecret (Fedora, Arch)"
                )
            }
            // Never dlclose: GLib registers types that must outlive any unloading.
            func symbol<T>(_ name: String) throws(JarvisError) -> T {
                guard let pointer = dlsym(handle, name) else {
                    throw JarvisError(
                        .unavailable, "libsecret is too old: it lacks \(name); install libsecret 0.18 or newer")
                }
                return unsafeBitCast(pointer, to: T.self)
            }
            func raw(_ name: String) throws(JarvisError) -> Raw {
                guard let pointer = dlsym(handle, name) else {
                    throw JarvisError(.unavailable, "GLib lacks \(name); the libsecret installation is incomplete")
                }
                return pointer
            }
            serviceGetSync = try symbol("secret_service_get_sync")
            collectionForAliasSync = try symbol("secret_collection_for_alias_sync")
            collectionSearchSync = try symbol("secret_collection_search_sync")
            itemForPathSync = try symbol("secret_item_new_for_dbus_path_sync")
            itemGetAttributes = try symbol("secret_item_get_attributes")
            itemGetLabel = try symbol("secret_item_get_label")
            itemGetSecret = try symbol("secret_item_get_secret")
            itemSetSecretSync = try symbol("secret_item_set_secret_sync")
            itemCreateSync = try symbol("secret_item_create_sync")
            itemDeleteSync = try symbol("secret_item_delete_sync")
            valueGet = try symbol("secret_value_get")
            valueNew = try symbol("secret_value_new")
            valueUnref = try symbol("secret_value_unref")
            schemaNewv = try symbol("secret_schema_newv")
            schemaUnref = try symbol("secret_schema_unref")
            proxyObjectPath = try symbol("g_dbus_proxy_get_object_path")
            hashTableNewFull = try symbol("g_hash_table_new_full")
            hashTableInsert = try symbol("g_hash_table_insert")
            hashTableGetKeys = try symbol("g_hash_table_get_keys")
            hashTableLookup = try symbol("g_hash_table_lookup")
            hashTableUnref = try symbol("g_hash_table_unref")
            listFree = try symbol("g_list_free")
            objectUnref = try symbol("g_object_unref")
            errorFree = try symbol("g_error_free")
            gFree = try symbol("g_free")
            strdup = try symbol("g_strdup")
            strHash = try raw("g_str_hash")
            strEqual = try raw("g_str_equal")
            freeCallback = try raw("g_free")
        }

        // MARK: - Operations

        /// The items of the default collection whose attributes include every one of `query`
        /// (every item for an empty query), in the order of their object paths; unlocks the
        /// collection if needed.
        func search(_ query: [String: String], loadSecrets: Bool) throws(JarvisError) -> [SecretItem] {
            try withCollection { _, collection throws(JarvisError) in
                let table = try makeTable(query)
                defer { hashTableUnref(table) }
                var flags = Self.searchAll | Self.searchUnlock
                if loadSecrets { flags |= Self.searchLoadSecrets }
                let list = try callAllowingNull("search the default keyring") { error in
                    collectionSearchSync(collection, nil, table, flags, nil, error)
                }
                let pointers = elements(of: list)
                defer {
                    for item in pointers { objectUnref(item) }
                    listFree(list)
                }
                return pointers.map { copy($0, loadSecrets: loadSecrets) }.sorted { $0.id < $1.id }
            }
        }

        /// Replaces the secret of the item at `path`, keeping its label and attributes.
        func setSecret(path: String, bytes: [UInt8], isText: Bool) throws(JarvisError) {
            try withItem(path) { item throws(JarvisError) in
                let value = try makeValue(bytes, isText: isText)
                defer { valueUnref(value) }
                try succeed("store the secret") { error in itemSetSecretSync(item, value, nil, error) }
            }
        }

        /// Creates an item in the default collection with these attributes.
        func createItem(attributes: [String: String], label: String, bytes: [UInt8], isText: Bool) throws(JarvisError) {
            try withCollection { _, collection throws(JarvisError) in
                let schema = try makeSchema(names: Array(attributes.keys))
                defer { schemaUnref(schema) }
                let table = try makeTable(attributes)
                defer { hashTableUnref(table) }
                let value = try makeValue(bytes, isText: isText)
                defer { valueUnref(value) }
                let item = try call("create the item") { error in
                    label.withCString { itemCreateSync(collection, schema, table, $0, value, 0, nil, error) }
                }
                objectUnref(item)
            }
        }

        /// Deletes the item at `path`.
        func deleteItem(path: String) throws(JarvisError) {
            try withItem(path) { item throws(JarvisError) in
                try succeed("delete the item") { error in itemDeleteSync(item, nil, error) }
            }
        }

        // MARK: - Pointers

        /// Connects, opens the default collection, runs `body`, then releases both, whatever
        /// `body` did.
        private func withCollection<T>(_ body: (Raw, Raw) throws(JarvisError) -> T) throws(JarvisError) -> T {
            try calls.withLock { (_: inout Void) throws(JarvisError) -> T in
                let service = try call("connect to the Secret Service") { error in
                    serviceGetSync(Self.openSession, nil, error)
                }
                defer { objectUnref(service) }
                let found = try callAllowingNull("open the default keyring") { error in
                    "default".withCString { collectionForAliasSync(service, $0, 0, nil, error) }
                }
                guard let collection = found else {
                    throw JarvisError(
                        .unavailable,
                        "the keyring has no default collection; create one (for example with Seahorse) and make it the default"
                    )
                }
                defer { objectUnref(collection) }
                return try body(service, collection)
            }
        }

        /// The item at an object path, without searching, for `body`.
        private func withItem<T>(_ path: String, _ body: (Raw) throws(JarvisError) -> T) throws(JarvisError) -> T {
            try withCollection { service, _ throws(JarvisError) -> T in
                let found = try? call("open the keyring item") { error in
                    path.withCString { itemForPathSync(service, $0, 0, nil, error) }
                }
                guard let item = found else {
                    throw JarvisError(.notFound, "the keyring item changed or was removed meanwhile; list again")
                }
                defer { objectUnref(item) }
                return try body(item)
            }
        }

        /// Runs a call that reports failure through `GError **`; nil is a valid answer.
        private func callAllowingNull(_ action: String, _ body: (ErrorOut) -> Raw?) throws(JarvisError) -> Raw? {
            var error: Raw?
            let result = withUnsafeMutablePointer(to: &error) { body($0) }
            if let error {
                // GError is { GQuark domain; gint code; gchar *message; }: the message follows two 32-bit fields.
                let message = error.load(fromByteOffset: 8, as: UnsafePointer<CChar>?.self).map { String(cString: $0) }
                errorFree(error)
                // A call that sets an error returns null; should one not, leaking beats freeing the wrong type.
                _ = result
                throw JarvisError(.storage, "cannot \(action): \(message ?? "unknown error")")
            }
            return result
        }

        /// Runs a call that must return an object.
        private func call(_ action: String, _ body: (ErrorOut) -> Raw?) throws(JarvisError) -> Raw {
            guard let result = try callAllowingNull(action, body) else {
                throw JarvisError(.storage, "cannot \(action): libsecret returned nothing")
            }
            return result
        }

        /// Runs a call that returns a `gboolean`.
        private func succeed(_ action: String, _ body: (ErrorOut) -> Int32) throws(JarvisError) {
            var error: Raw?
            let result = withUnsafeMutablePointer(to: &error) { body($0) }
            if let error {
                let message = error.load(fromByteOffset: 8, as: UnsafePointer<CChar>?.self).map { String(cString: $0) }
                errorFree(error)
                throw JarvisError(.storage, "cannot \(action): \(message ?? "unknown error")")
            }
            if result == 0 { throw JarvisError(.storage, "cannot \(action): the Secret Service refused") }
        }

        /// The `data` fields of a `GList` ({ data; next; prev; }).
        private func elements(of list: Raw?) -> [Raw] {
            var result: [Raw] = []
            var node = list
            while let current = node {
                if let data = current.load(as: Raw?.self) { result.append(data) }
                node = current.load(fromByteOffset: MemoryLayout<Raw>.stride, as: Raw?.self)
            }
            return result
        }

        private func objectPath(_ item: Raw) -> String? {
            proxyObjectPath(item).map { String(cString: $0) }
        }

        private func copy(_ pointer: Raw, loadSecrets: Bool) -> SecretItem {
            var label = ""
            if let text = itemGetLabel(pointer) {
                label = String(cString: text)
                gFree(text)
            }
            var attributes: [String: String] = [:]
            if let table = itemGetAttributes(pointer) {
                let keys = hashTableGetKeys(table)
                for key in elements(of: keys) {
                    guard let value = hashTableLookup(table, key) else { continue }
                    attributes[String(cString: key.assumingMemoryBound(to: CChar.self))] =
                        String(cString: value.assumingMemoryBound(to: CChar.self))
                }
                listFree(keys)
                hashTableUnref(table)
            }
            var secret: [UInt8]?
            if loadSecrets, let value = itemGetSecret(pointer) {
                var length = 0
                if let bytes = valueGet(value, &length), length >= 0 {
                    secret = Array(UnsafeRawBufferPointer(start: bytes, count: length))
                }
                valueUnref(value)
            }
            return SecretItem(id: objectPath(pointer) ?? "", label: label, attributes: attributes, secret: secret)
        }

        /// A `GHashTable` of strings that owns copies of the keys and values.
        private func makeTable(_ contents: [String: String]) throws(JarvisError) -> Raw {
            guard let table = hashTableNewFull(strHash, strEqual, freeCallback, freeCallback) else {
                throw JarvisError(.storage, "cannot allocate an attribute table")
            }
            for (key, value) in contents {
                let keyCopy = key.withCString { strdup($0) }
                let valueCopy = value.withCString { strdup($0) }
                _ = hashTableInsert(table, keyCopy, valueCopy)
            }
            return table
        }

        /// A schema whose attributes are all strings (`SECRET_SCHEMA_ATTRIBUTE_STRING` is 0, a null value).
        private func makeSchema(names: [String]) throws(JarvisError) -> Raw {
            guard let table = hashTableNewFull(strHash, strEqual, freeCallback, nil) else {
                throw JarvisError(.storage, "cannot allocate a schema")
            }
            defer { hashTableUnref(table) }
            for name in names {
                _ = hashTableInsert(table, name.withCString { strdup($0) }, nil)
            }
            guard let schema = Self.schemaName.withCString({ schemaNewv($0, 0, table) }) else {
                throw JarvisError(.storage, "cannot create the item schema")
            }
            return schema
        }

        private func makeValue(_ bytes: [UInt8], isText: Bool) throws(JarvisError) -> Raw {
            let contentType = isText ? "text/plain" : "application/octet-stream"
            // An empty secret still needs a valid pointer.
            let stored = bytes.isEmpty ? [0] : bytes
            let value = stored.withUnsafeBufferPointer { buffer in
                contentType.withCString { type in
                    buffer.withMemoryRebound(to: CChar.self) { valueNew($0.baseAddress, bytes.count, type) }
                }
            }
            guard let value else { throw JarvisError(.storage, "cannot allocate the secret value") }
            return value
        }
    }
#endif
