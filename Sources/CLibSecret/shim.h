#ifndef SECKIT_CLIBSECRET_SHIM_H
#define SECKIT_CLIBSECRET_SHIM_H

// libsecret (the freedesktop Secret Service client) and the GLib/GIO types it speaks in.
// Its convenience calls are C-variadic; Swift uses the `...v_sync` variants with a GHashTable.
// SECRET_API_SUBJECT_TO_CHANGE brings in secret-paths.h (search by D-Bus object path, secrets of
// several paths in one call: SecKeychain's fast lookup, which creates no item proxies). Stable in
// practice since libsecret 0.18.
#define SECRET_API_SUBJECT_TO_CHANGE 1
#include <libsecret/secret.h>

#endif
