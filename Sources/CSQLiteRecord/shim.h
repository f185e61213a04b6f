#ifndef CSQLITERECORD_SHIM_H
#define CSQLITERECORD_SHIM_H
#include <sqlite3.h>
#endif
