/* libpq; pkg-config libpq puts /usr/include/postgresql on the include path (Debian: libpq-dev). */
#include <libpq-fe.h>

/// The field code of an error's SQLSTATE (PG_DIAG_SQLSTATE is a character-literal macro).
static inline int dfukit_pg_diag_sqlstate(void) {
    return PG_DIAG_SQLSTATE;
}
