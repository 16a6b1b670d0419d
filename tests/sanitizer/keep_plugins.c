/* Linked into every program of the Asan build only: dlclose() that keeps the library loaded.
   Open MPI 4.1 unloads its plugins (its MCA components and the PMIx and hwloc plugins they open) in MPI_Finalize, so
   when LeakSanitizer checks the process at exit the stack frames of the blocks those plugins leaked lie in no loaded
   module: the report says "<unknown module>" and, for every such frame, the sanitizer's symbolizer reads the list of
   modules again (some 10 ms each), which made each process of the sanitizer job about 2 s slower to exit. With the
   plugins kept, every frame has its module and the suppressions of tests/sanitizer/lsan.supp match on the first one.
   Nothing else changes: a library that stays loaded is what RTLD_NODELETE asks for, and our code never unloads one.
   The program's own definition takes precedence over the C library's and over the sanitizer's interceptor (the
   executable comes first in the lookup; the link exports the symbol, see CMAKE_EXE_LINKER_FLAGS_ASAN). */
#include <dlfcn.h>

int dlclose(void *handle)
{
  (void)handle;
  return 0;
}
