/* The POMP routines that control the library (seed 002 §3.6 and Appendix B):
 * POMP_Init, POMP_Finalize, POMP_On, POMP_Off and POMP_Get_handle. */
#include <pomplib.h>

#include "pomp_record.h"

POMP_Int32 POMP_Init(void)
{
    pomp_ensure_initialized();
    return POMP_SUCCESS;
}

POMP_Int32 POMP_Finalize(void) { return pomp_finalize(); }

POMP_Int32 POMP_Get_handle(POMP_Handle_t *handle, const char ctc[])
{
    pomp_ensure_core_initialized();
    return pomp_region_get_handle(handle, ctc, POMP_INIT_HANDLE);
}

POMP_Int32 POMP_On(void) { return pomp_switch_to(POMP_STATE_ON); }
POMP_Int32 POMP_Off(void) { return pomp_switch_to(POMP_STATE_OFF); }
