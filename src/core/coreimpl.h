/* stickslip core: log events shared by the io module (private to the library). */
#ifndef STICKSLIP_COREIMPL_H
#define STICKSLIP_COREIMPL_H

#include <stickslip/core.h>

extern PetscLogEvent SK_EVENT_InputLoad, SK_EVENT_OutputWrite, SK_EVENT_VTKWrite;

#endif
