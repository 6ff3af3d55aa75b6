// Replaces malloc and its siblings for the whole process (an executable's definitions take
// precedence over libc's) with versions that count the calling thread's allocations and then
// call glibc's implementation, so the figures are of glibc's allocator with a counter added.
// A per-thread counter costs one increment, with no atomic operation on the allocation path.
#include "allocation_counter.h"

#include <errno.h>
#include <stddef.h>

extern void *__libc_malloc(size_t size);
extern void *__libc_calloc(size_t count, size_t size);
extern void *__libc_realloc(void *pointer, size_t size);
extern void *__libc_memalign(size_t alignment, size_t size);

static __thread long thread_allocations;

long modelgraph_thread_allocations(void) { return thread_allocations; }

void *malloc(size_t size) {
  thread_allocations += 1;
  return __libc_malloc(size);
}

void *calloc(size_t count, size_t size) {
  thread_allocations += 1;
  return __libc_calloc(count, size);
}

void *realloc(void *pointer, size_t size) {
  thread_allocations += 1;
  return __libc_realloc(pointer, size);
}

void *memalign(size_t alignment, size_t size) {
  thread_allocations += 1;
  return __libc_memalign(alignment, size);
}

void *aligned_alloc(size_t alignment, size_t size) {
  thread_allocations += 1;
  return __libc_memalign(alignment, size);
}

int posix_memalign(void **result, size_t alignment, size_t size) {
  if (alignment < sizeof(void *) || (alignment & (alignment - 1)) != 0) return EINVAL;
  thread_allocations += 1;
  void *pointer = __libc_memalign(alignment, size);
  if (pointer == NULL && size != 0) return ENOMEM;
  *result = pointer;
  return 0;
}
