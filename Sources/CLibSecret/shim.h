#ifndef SECKIT_CLIBSECRET_SHIM_H
#define SECKIT_CLIBSECRET_SHIM_H

// libsecret (the freedesktop Secret Service client) and the GLib/GIO types it speaks in.
// Its convenience calls are C-variadic; Swift passes attributes in a GHashTable instead.
// SECRET_API_SUBJECT_TO_CHANGE brings in secret-paths.h (items by D-Bus object path, which writes
// use). Stable in practice since libsecret 0.18.
#define SECRET_API_SUBJECT_TO_CHANGE 1
#include <libsecret/secret.h>
#include <dlfcn.h>

// SecKeychain reads over GIO's D-Bus calls and needs libsecret only to write, so it loads
// libsecret-1.so.0 at the first write (dlopen) and calls it through this table, never by name (each
// entry has the exact type of the function in libsecret's headers). Linked without -lsecret-1, as
// tools/build-release links seccli, a process that only reads never maps libsecret and libgcrypt
// (their load is part of every `seccli cred get` otherwise: docs/performance-journal.md), and reads work
// where libsecret is not installed.
#define SECKIT_LIBSECRET_FUNCTIONS(X) \
    X(service_get_sync) \
    X(service_create_item_dbus_path_sync) \
    X(service_encode_dbus_secret) \
    X(service_delete_item_dbus_path_sync) \
    X(value_new) \
    X(value_unref)

#define SECKIT_LIBSECRET_ENTRY(name) __typeof__(secret_##name) *name;
typedef struct {
    SECKIT_LIBSECRET_FUNCTIONS(SECKIT_LIBSECRET_ENTRY)
} SecKitLibSecret;
#undef SECKIT_LIBSECRET_ENTRY

/// Fills `table` with the functions of the libsecret `library` (a dlopen handle); 0 when one is
/// missing, with dlerror() telling which.
static inline int seckit_libsecret_resolve(void *library, SecKitLibSecret *table) {
#define SECKIT_LIBSECRET_RESOLVE(name) \
    if (!(table->name = (__typeof__(table->name))dlsym(library, "secret_" #name))) return 0;
    SECKIT_LIBSECRET_FUNCTIONS(SECKIT_LIBSECRET_RESOLVE)
#undef SECKIT_LIBSECRET_RESOLVE
    return 1;
}

#endif
