// Counts the heap allocations this process makes, by replacing the C allocator's entry points
// with ones that count and then call glibc's own. Linked only into `modelgraph-benchmark` (the
// jemalloc executable keeps jemalloc's entry points).
#ifndef MODELGRAPH_ALLOCATION_COUNTER_H
#define MODELGRAPH_ALLOCATION_COUNTER_H

/// Allocations (malloc, calloc, realloc, posix_memalign, aligned_alloc, memalign) made so far
/// by the calling thread.
long modelgraph_thread_allocations(void);

#endif
