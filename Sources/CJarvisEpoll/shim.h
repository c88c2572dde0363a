// Linux headers that Swift's Glibc module does not expose: the readiness queue (epoll) and
// the file-system type of a folder (statfs), and a thread's name (prctl). Empty elsewhere.
#ifdef __linux__
#include <sys/epoll.h>
#include <sys/prctl.h>
#include <sys/vfs.h>
// prctl is variadic, which Swift cannot call: the calling thread's name, first 15 bytes.
static inline int jarvis_name_thread(const char *name) { return prctl(PR_SET_NAME, (unsigned long)name, 0, 0, 0); }
#endif
