#include "textflag.h"

// func cpuCycles() uint64
TEXT ·cpuCycles(SB),NOSPLIT,$0-8
	LFENCE
	RDTSC
	SHLQ	$32, DX
	ORQ	DX, AX
	MOVQ	AX, ret+0(FP)
	RET
