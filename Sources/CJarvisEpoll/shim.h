// Linux headers that Swift's Glibc module does not expose: the readiness queue (epoll) and
// the file-system type of a folder (statfs), a thread's name (prctl), and glibc's handing
// back of freed memory (malloc_trim). Empty elsewhere.
#ifdef __linux__
#include <sys/epoll.h>
#include <sys/prctl.h>
#include <sys/vfs.h>
// prctl is variadic, which Swift cannot call: the calling thread's name, first 15 bytes.
static inline int jarvis_name_thread(const char *name) { return prctl(PR_SET_NAME, (unsigned long)name, 0, 0, 0); }
#ifdef __GLIBC__
#include <malloc.h>
// Returns the free memory of every arena to the system; 1 when some was returned.
static inline int jarvis_give_back_freed(void) { return malloc_trim(0); }
#endif
#endif
