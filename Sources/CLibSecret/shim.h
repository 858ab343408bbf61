#ifndef SECKIT_CLIBSECRET_SHIM_H
#define SECKIT_CLIBSECRET_SHIM_H

// libsecret (the freedesktop Secret Service client) and the GLib/GIO types it speaks in.
// Its convenience calls are C-variadic; Swift uses the `...v_sync` variants with a GHashTable.
#include <libsecret/secret.h>

#endif
