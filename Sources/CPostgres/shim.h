// libpq, PostgreSQL's client library, for Sources/AggPostgres. Nothing here needs a wrapper:
// the functions agg calls (PQconnectdbParams, PQexecParams, PQgetvalue, ...) are not variadic.
#ifndef AGG_CPOSTGRES_SHIM_H
#define AGG_CPOSTGRES_SHIM_H

#include <libpq-fe.h>

#endif
