#include "textflag.h"

// lanes holds 1 to 8: lane k's first state is state + (k+1)·gamma.
DATA lanes<>+0(SB)/8, $1
DATA lanes<>+8(SB)/8, $2
DATA lanes<>+16(SB)/8, $3
DATA lanes<>+24(SB)/8, $4
DATA lanes<>+32(SB)/8, $5
DATA lanes<>+40(SB)/8, $6
DATA lanes<>+48(SB)/8, $7
DATA lanes<>+56(SB)/8, $8
GLOBL lanes<>(SB), RODATA|NOPTR, $64

// func fillDrawsAVX512(state uint64, d *[aheadHalf]uint64) (tops, after uint64)
//
// fillDraws eight draws at a time: the same SplitMix64 steps on eight
// lanes, VPMULLQ for the multiplications and VPMOVQ2M gathering the top
// bits.
TEXT ·fillDrawsAVX512(SB), NOSPLIT, $0-32
	MOVQ state+0(FP), AX
	MOVQ d+8(FP), DI
	MOVQ $0x9e3779b97f4a7c15, BX
	VPBROADCASTQ AX, Z0
	VPBROADCASTQ BX, Z1
	VMOVDQU64 lanes<>(SB), Z2
	VPMULLQ Z1, Z2, Z2
	VPADDQ Z2, Z0, Z0       // Z0: the eight states of the next draws
	VPSLLQ $3, Z1, Z4       // Z4: 8·gamma, a step of all lanes
	MOVQ $0xbf58476d1ce4e5b9, DX
	VPBROADCASTQ DX, Z5
	MOVQ $0x94d049bb133111eb, DX
	VPBROADCASTQ DX, Z6
	XORQ R8, R8             // tops
	XORQ CX, CX             // the first draw's bit in tops: 0, 8, … 56

loop:
	VPSRLQ $30, Z0, Z7
	VPXORQ Z0, Z7, Z7
	VPMULLQ Z5, Z7, Z7
	VPSRLQ $27, Z7, Z8
	VPXORQ Z7, Z8, Z7
	VPMULLQ Z6, Z7, Z7
	VPSRLQ $31, Z7, Z8
	VPXORQ Z7, Z8, Z7
	VMOVDQU64 Z7, (DI)
	VPMOVQ2M Z7, K1
	KMOVB K1, DX
	SHLQ CX, DX
	ORQ DX, R8
	VPADDQ Z4, Z0, Z0
	ADDQ $64, DI
	ADDQ $8, CX
	CMPQ CX, $64
	JLT loop

	VZEROUPPER
	SHLQ $6, BX
	ADDQ BX, AX
	MOVQ R8, tops+16(FP)
	MOVQ AX, after+24(FP)
	RET
