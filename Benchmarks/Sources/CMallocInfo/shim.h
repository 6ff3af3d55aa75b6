// glibc's allocator statistics, which Swift's Glibc module does not expose.
#include <malloc.h>
#include <stddef.h>

/// Bytes glibc's allocator has handed out and not had back: arena blocks in use plus
/// mapped blocks.
static inline size_t modelgraph_heap_bytes_in_use(void) {
  struct mallinfo2 info = mallinfo2();
  return info.uordblks + info.hblkhd;
}
