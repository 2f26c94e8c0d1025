// The framing library of the WebSocket client (AggTransport/WebSocket).
#ifndef AGG_CWSLAY_SHIM_H
#define AGG_CWSLAY_SHIM_H

#include <sys/types.h>
#include <wslay/wslay.h>

#endif
