/* kolo_err.h - the error-message formatter shared by libkolo's files, the
 * kolo-sim client (the PE side of the shared-memory protocol) and its server
 * side, which are also linked without the rest of the library (kolo-sim, the
 * board simulation, the protocol's unit test). */
#ifndef KOLO_ERR_H
#define KOLO_ERR_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* printf into the caller's buffer err of errlen bytes (cut to fit, always
 * terminated); nothing when err is NULL or errlen is 0 */
void kolo_set_err(char *err, size_t errlen, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

#ifdef __cplusplus
}
#endif
#endif
