/* A stand-in for Windows' bcryptprimitives.dll, for Wine releases older
 * than 8.13 (Debian 12 ships 8.0), which lack it. Every Go program for
 * Windows loads ProcessPrng from it at start-up and stops when it is
 * missing; RtlGenRandom (advapi32's SystemFunction036) gives the same
 * random bytes. make test-windows builds it with MinGW into the Wine
 * prefix only when Wine has no bcryptprimitives.dll of its own. */
#include <windows.h>

BOOLEAN WINAPI SystemFunction036(PVOID buffer, ULONG length);

__declspec(dllexport) BOOL WINAPI ProcessPrng(PBYTE data, SIZE_T size)
{
	while (size > 0) {
		ULONG n = size > 0x40000000 ? 0x40000000 : (ULONG)size;
		if (!SystemFunction036(data, n))
			return FALSE;
		data += n;
		size -= n;
	}
	return TRUE;
}
