// deflateInit2 and inflateInit2 are macros (it passes zlib's version and the stream's size), which Swift cannot
// import: a non-macro wrapper for the gzip format.
#ifndef AGG_CZLIB_SHIM_H
#define AGG_CZLIB_SHIM_H

#include <zlib.h>

/// Starts a deflate stream that writes the gzip format (window bits 15 + 16).
static inline int agg_deflate_init_gzip(z_stream *stream, int level) {
    return deflateInit2(stream, level, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY);
}

/// Starts an inflate stream that reads the gzip format (for tests that check what was sent).
static inline int agg_inflate_init_gzip(z_stream *stream) {
    return inflateInit2(stream, 15 + 16);
}

#endif
