#ifndef CPOSTGRESRECORD_SHIM_H
#define CPOSTGRESRECORD_SHIM_H
// libpq's client API; pkg-config libpq adds its include folder (/usr/include/postgresql on Debian).
#include <libpq-fe.h>
#endif
