#ifndef SECKIT_CLIBSECRET_SHIM_H
#define SECKIT_CLIBSECRET_SHIM_H

// libsecret (the freedesktop Secret Service client) and the GLib/GIO types it speaks in.
// Its convenience calls are C-variadic; Swift passes attributes in a GHashTable instead.
// SECRET_API_SUBJECT_TO_CHANGE brings in secret-paths.h (items by D-Bus object path, which writes
// use). Stable in practice since libsecret 0.18.
#define SECRET_API_SUBJECT_TO_CHANGE 1
#include <libsecret/secret.h>
#include <dlfcn.h>

// Neither GIO (with GObject and GLib) nor libsecret is linked by this module: SecKeychain loads each
// at its first use (dlopen) and calls it through a table of its functions, never by name. Each
// entry has the exact type and the name of the function in the library's headers. Linked without
// them, as tools/build-release links seccli, a process that never reaches the Secret Service (its
// --version, the file and OpenBao backends) maps neither GIO, GLib and what GIO needs (libmount,
// libblkid, libselinux, libffi, libpcre2…) nor binds their symbols at start-up, and runs where
// they are not installed (docs/performance-journal.md).
//
// SECKIT_LIBRARY_TABLE(Type, resolver, FUNCTIONS) defines the table `Type` of the functions that
// the X-macro FUNCTIONS lists, and `int resolver(void *library, Type *table)`, which fills it
// from a dlopen handle: 0 when a function is missing, with dlerror() telling which.
#define SECKIT_LIBRARY_ENTRY(name) __typeof__(name) *name;
#define SECKIT_LIBRARY_RESOLVE(name) \
    if (!(table->name = (__typeof__(table->name))dlsym(library, #name))) return 0;
#define SECKIT_LIBRARY_TABLE(Type, resolver, FUNCTIONS) \
    typedef struct { FUNCTIONS(SECKIT_LIBRARY_ENTRY) } Type; \
    static inline int resolver(void *library, Type *table) { \
        FUNCTIONS(SECKIT_LIBRARY_RESOLVE) \
        return 1; \
    }

// GIO's D-Bus calls, GObject and GLib, loaded (libgio-2.0.so.0, which brings the other two) by a
// process's first Secret Service call; dlsym finds GObject's and GLib's functions through GIO's
// handle, which covers the libraries it needs. Every function SecKeychain calls is here: none of
// them is a macro or an inline function in GLib's headers (g_str_equal is also a macro, but only
// where it is called; the table takes its address).
#define SECKIT_GLIB_FUNCTIONS(X) \
    X(g_free) \
    X(g_strdup) \
    X(g_str_hash) \
    X(g_str_equal) \
    X(g_error_free) \
    X(g_quark_from_static_string) \
    X(g_compute_checksum_for_data) \
    X(g_get_monotonic_time) \
    X(g_thread_new) \
    X(g_thread_unref) \
    X(g_hash_table_new_full) \
    X(g_hash_table_insert) \
    X(g_hash_table_unref) \
    X(g_main_context_new) \
    X(g_main_context_unref) \
    X(g_main_context_push_thread_default) \
    X(g_main_context_pop_thread_default) \
    X(g_main_context_iteration) \
    X(g_variant_type_new) \
    X(g_variant_type_free) \
    X(g_variant_new_tuple) \
    X(g_variant_new_dict_entry) \
    X(g_variant_new_array) \
    X(g_variant_new_fixed_array) \
    X(g_variant_new_objv) \
    X(g_variant_new_string) \
    X(g_variant_new_object_path) \
    X(g_variant_new_variant) \
    X(g_variant_ref_sink) \
    X(g_variant_unref) \
    X(g_variant_n_children) \
    X(g_variant_get_child_value) \
    X(g_variant_get_variant) \
    X(g_variant_get_type_string) \
    X(g_variant_get_string) \
    X(g_variant_get_boolean) \
    X(g_variant_get_uint64) \
    X(g_variant_get_fixed_array) \
    X(g_object_unref) \
    X(g_cancellable_new) \
    X(g_cancellable_cancel) \
    X(g_io_error_quark) \
    X(g_dbus_error_get_remote_error) \
    X(g_bus_get_sync) \
    X(g_dbus_connection_is_closed) \
    X(g_dbus_connection_call) \
    X(g_dbus_connection_call_finish) \
    X(g_dbus_proxy_get_connection)
SECKIT_LIBRARY_TABLE(SecKitGLib, seckit_glib_resolve, SECKIT_GLIB_FUNCTIONS)

// libsecret, loaded (libsecret-1.so.0) by a process's first write: reads go over GIO's D-Bus calls
// directly, so a process that only reads never maps libsecret and libgcrypt, and reads work where
// libsecret is not installed.
#define SECKIT_LIBSECRET_FUNCTIONS(X) \
    X(secret_service_get_sync) \
    X(secret_service_create_item_dbus_path_sync) \
    X(secret_service_encode_dbus_secret) \
    X(secret_service_delete_item_dbus_path_sync) \
    X(secret_value_new) \
    X(secret_value_unref)
SECKIT_LIBRARY_TABLE(SecKitLibSecret, seckit_libsecret_resolve, SECKIT_LIBSECRET_FUNCTIONS)

#endif
