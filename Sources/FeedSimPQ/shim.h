#ifndef FEEDSIM_PQ_SHIM_H
#define FEEDSIM_PQ_SHIM_H

#include <libpq-fe.h>

/// PG_DIAG_SQLSTATE is a macro over a character constant; named here so Swift reads one value.
static inline int feedsim_pq_diag_sqlstate(void) { return PG_DIAG_SQLSTATE; }
/// PG_DIAG_MESSAGE_PRIMARY: the error's one-line primary message, without severity or detail.
static inline int feedsim_pq_diag_message_primary(void) { return PG_DIAG_MESSAGE_PRIMARY; }
/// PG_DIAG_MESSAGE_DETAIL: the optional secondary message.
static inline int feedsim_pq_diag_message_detail(void) { return PG_DIAG_MESSAGE_DETAIL; }

#endif
