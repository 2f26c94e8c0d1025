// glibc's malloc tuning (mallopt and its M_* parameters), which the Glibc module does not
// import: <malloc.h> is not one of its headers.
#ifndef AGG_CMALLOC_SHIM_H
#define AGG_CMALLOC_SHIM_H

#include <malloc.h>

#endif
