// Linux's readiness queue, which Swift's Glibc module does not expose. Empty elsewhere.
#ifdef __linux__
#include <sys/epoll.h>
#endif
