// glibc's malloc tuning (mallopt and its M_* parameters), which the Glibc module does not
// import: <malloc.h> is not one of its headers.
#ifndef AGG_CMALLOC_SHIM_H
#define AGG_CMALLOC_SHIM_H

#include <malloc.h>

// How agg's processes allocate; `agg` and `agg-bench` (which measures agg's loops in process)
// call it first thing, so that both run with the same allocator.
//
// One malloc arena for every thread, and large blocks from the heap rather than fresh mappings.
// Answers are decoded on the cooperative pool's threads and written out on another; with an
// arena per thread and a mapping per large buffer, a market-wide `quote --all` touched about
// 190 more new pages (page faults, kernel time) of its 1,500 for memory already freed elsewhere,
// and `agg record`'s loop held 80 MB after 10,000 ticks where one arena holds 37 MB. agg's
// threads seldom allocate at the same moment, so sharing one arena costs no measurable waiting.
static inline void agg_tune_malloc(void) {
    mallopt(M_ARENA_MAX, 1);
    mallopt(M_MMAP_THRESHOLD, 4 << 20);
}

#endif
