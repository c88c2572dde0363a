// Linux headers that Swift's Glibc module does not expose: the readiness queue (epoll) and
// the file-system type of a folder (statfs). Empty elsewhere.
#ifdef __linux__
#include <sys/epoll.h>
#include <sys/vfs.h>
#endif
