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

// LANES sets Z0 to the states of the eight draws after the state in AX,
// Z4 to 8·gamma (a step of all lanes), and Z5 and Z6 to mix's
// multipliers, using BX, DX, Z1 and Z2.
#define LANES \
	MOVQ $0x9e3779b97f4a7c15, BX; \
	VPBROADCASTQ AX, Z0; \
	VPBROADCASTQ BX, Z1; \
	VMOVDQU64 lanes<>(SB), Z2; \
	VPMULLQ Z1, Z2, Z2; \
	VPADDQ Z2, Z0, Z0; \
	VPSLLQ $3, Z1, Z4; \
	MOVQ $0xbf58476d1ce4e5b9, DX; \
	VPBROADCASTQ DX, Z5; \
	MOVQ $0x94d049bb133111eb, DX; \
	VPBROADCASTQ DX, Z6

// func fillDrawsAVX512(state uint64, d *[aheadHalf]uint64) (tops, after uint64)
//
// fillDraws eight draws at a time: the same SplitMix64 steps on eight
// lanes, VPMULLQ for the multiplications and VPMOVQ2M gathering the top
// bits.
TEXT ·fillDrawsAVX512(SB), NOSPLIT, $0-32
	MOVQ state+0(FP), AX
	MOVQ d+8(FP), DI
	LANES                   // BX keeps gamma
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

// func closeWindowAsm(draws *[2 * aheadHalf]uint64, p []byte, closes uint64, pos, c, run, cols int) (east, north uint64, next, rare int)
//
// closeWindow's loop with every value in a register, which the compiler
// does not manage around MULQ's fixed registers. Counted from c: SI is the
// cell k of a close (from c), R10 the run's first cell r, R12 the cells
// before the close less the closes before it. rare is closeOutside (-2)
// if a member's passage falls outside p.
TEXT ·closeWindowAsm(SB), NOSPLIT, $0-104
	MOVQ draws+0(FP), DI
	MOVQ closes+32(FP), BX
	MOVQ pos+40(FP), R8
	INCQ R8                 // the member's draw follows its close
	MOVQ c+48(FP), R9
	MOVQ run+56(FP), R10
	SUBQ R9, R10            // r = run - c
	XORQ R11, R11           // east
	XORQ R13, R13           // north
	XORQ R12, R12           // k0

loop:
	TESTQ BX, BX
	JZ done
	TZCNTQ BX, SI           // i, the draw of the next close (BSF where there is no BMI1: BX ≠ 0)
	LEAQ -1(BX), AX
	ANDQ AX, BX
	LEAQ (R8)(SI*1), AX
	ANDQ $(2*64-1), AX
	MOVQ (DI)(AX*8), AX     // the member's draw
	ADDQ R12, SI            // k = k0 + i
	MOVQ SI, CX
	SUBQ R10, CX
	INCQ CX                 // size = k - r + 1
	MULQ CX                 // DX = member, AX = the product's low half
	CMPQ AX, CX
	JB rare
	BTSQ SI, R11
	ADDQ R10, DX            // up = r + member
	JS before
	BTSQ DX, R13
next:
	LEAQ 1(SI), R10
	DECQ R12
	JMP loop

before:
	// A member of a run begun before c: up += c - cols, and
	// p[up>>2] |= bitSouth << ((up & 3) * 2).
	ADDQ R9, DX
	SUBQ cols+64(FP), DX
	MOVQ DX, AX
	SARQ $2, AX
	CMPQ AX, p_len+16(FP)
	JAE outside
	MOVQ DX, CX
	ANDQ $3, CX
	SHLQ $1, CX
	MOVL $2, DX
	SHLL CX, DX
	MOVQ p_base+8(FP), CX
	ORB DL, (CX)(AX*1)
	JMP next

rare:
	SUBQ R12, SI            // i = k - k0
	MOVQ SI, rare+96(FP)
	JMP out

outside:
	MOVQ $-2, rare+96(FP)
	JMP out

done:
	MOVQ $-1, rare+96(FP)

out:
	MOVQ R11, east+72(FP)
	MOVQ R13, north+80(FP)
	ADDQ R9, R10
	MOVQ R10, next+88(FP)
	RET

// mixMuls holds mix's two multipliers, for MIX's IMULQs: from memory
// they take one instruction each, where from an immediate they take two,
// and every instruction less in restartAsm's draw lets more draws overlap
// their cache misses.
DATA mixMuls<>+0(SB)/8, $0xbf58476d1ce4e5b9
DATA mixMuls<>+8(SB)/8, $0x94d049bb133111eb
GLOBL mixMuls<>(SB), RODATA|NOPTR, $16

// MIX sets BX to SplitMix64's output function of BX, using CX.
#define MIX \
	MOVQ BX, CX; SHRQ $30, CX; XORQ CX, BX; \
	IMULQ mixMuls<>+0(SB), BX; \
	MOVQ BX, CX; SHRQ $27, CX; XORQ CX, BX; \
	IMULQ mixMuls<>+8(SB), BX; \
	MOVQ BX, CX; SHRQ $31, CX; XORQ CX, BX

// GAMMA is SplitMix64's step. restartAsm moves it in where it is needed,
// and reads the list's width and mask from its frame, to leave their
// registers to the probe's four rows.
#define GAMMA $0x9e3779b97f4a7c15

// The draws ahead whose cells are fetched: the list's entry 16 draws
// ahead, the grid's rows around the cell 8 ahead (whose entry came in 8
// draws ago). Each is the state's step: (d+1)·gamma mod 2⁶⁴.
#define RESTART_BUDGET 4096
#define ENTRY_DRAWS 16
#define CELL_DRAWS 8
#define ENTRY_AHEAD $0x81af155173f23d65
#define CELL_AHEAD $0x8ff34785799e5cbd

// AHEAD_LENGTH(d) sets CX to the list's length d draws ahead, were every
// draw before it to find no move (nine in ten do): n - d, or n if that is
// not above 0.
#define AHEAD_LENGTH(d) \
	MOVQ R10, CX; SUBQ d, CX; CMOVQLE R10, CX

// func restartAsm(data *byte, width, mask, n int, state uint64, cells *byte, rowBytes int) (c, left int, after uint64, status int)
//
// cellList.restart's loop, with the cache misses of the draws ahead
// started early: each draw's list entry is prefetched 16 draws before it
// is probed, and the grid's four rows around its cell 8 draws before.
// The draws are known ahead (state + k·gamma); the length the look-ahead
// scales by is the list's now, at most 16 entries longer than when the
// draw is probed, so the line is the same or the next. A prefetch never
// faults and changes nothing but timing: the probes themselves are
// exactly restart's. In Go, a call to a prefetch function would make the
// loop spill every register. status is restartFound, restartEmpty,
// restartRare when Lemire's method may draw again (then nothing of that
// draw is done), or restartMore after RESTART_BUDGET draws: the runtime
// cannot preempt assembly, so no call may run long enough to hold up a
// garbage collection (4096 draws take well under a millisecond).
TEXT ·restartAsm(SB), NOSPLIT, $0-88
	MOVQ data+0(FP), DI
	MOVQ n+24(FP), R10
	MOVQ state+32(FP), R11
	MOVQ cells+40(FP), SI
	MOVQ rowBytes+48(FP), R12
	MOVQ $RESTART_BUDGET, R14 // scratch in ABI0: the wrapper restores g

loop:
	TESTQ R10, R10
	JZ empty
	DECQ R14
	JS more

	// The entry 16 draws ahead.
	MOVQ ENTRY_AHEAD, BX
	ADDQ R11, BX
	MIX
	MOVQ BX, AX
	AHEAD_LENGTH($ENTRY_DRAWS)
	MULQ CX
	IMULQ width+8(FP), DX
	PREFETCHT0 (DI)(DX*1)

	// The four rows around the cell 8 draws ahead.
	MOVQ CELL_AHEAD, BX
	ADDQ R11, BX
	MIX
	MOVQ BX, AX
	AHEAD_LENGTH($CELL_DRAWS)
	MULQ CX
	IMULQ width+8(FP), DX
	MOVL (DI)(DX*1), DX
	ANDQ mask+16(FP), DX
	SUBQ $2, DX
	SHRQ $2, DX
	PREFETCHT0 (SI)(DX*1)
	MOVQ DX, BX
	SUBQ R12, BX
	PREFETCHT0 (SI)(BX*1)
	SUBQ R12, BX
	PREFETCHT0 (SI)(BX*1)
	ADDQ R12, DX
	PREFETCHT0 (SI)(DX*1)

	// This draw: entry i = the draw times n, by Lemire's method.
	MOVQ GAMMA, BX
	ADDQ R11, BX
	MIX
	MOVQ BX, AX
	MULQ R10
	CMPQ AX, R10
	JB rare
	MOVQ GAMMA, CX
	ADDQ CX, R11
	IMULQ width+8(FP), DX   // DX: the entry's byte offset
	MOVL (DI)(DX*1), AX
	ANDQ mask+16(FP), AX    // AX: the cell's place p
	MOVQ AX, c+56(FP)

	// The rows from p-2 on (dugAround): a in R13, b above in R8, d
	// below in AX, and c two above only when b leaves the north
	// neighbour in doubt: its sole passage can lead north, but rarely.
	LEAQ -2(AX), BX
	MOVQ BX, CX
	SHRQ $2, BX
	ANDL $3, CX
	SHLL $1, CX
	MOVWLZX (SI)(BX*1), R13
	SHRL CX, R13
	SUBQ R12, BX
	MOVWLZX (SI)(BX*1), R8
	SHRL CX, R8

	// North in R9: b>>2|b>>4|b>>5|c>>5.
	MOVQ R8, R9
	SHRQ $2, R9
	MOVQ R9, AX
	SHRQ $2, AX
	ORQ AX, R9
	SHRQ $1, AX
	ORQ AX, R9
	BTQ $0, R9
	JCS northDug
	MOVQ BX, AX
	SUBQ R12, AX
	MOVWLZX (SI)(AX*1), AX
	SHRL CX, AX
	SHRQ $5, AX
	ORQ AX, R9

northDug:
	LEAQ (BX)(R12*2), AX
	MOVWLZX (SI)(AX*1), AX
	SHRL CX, AX

	// West and east in R8, bits 0 and 4: a|a>>2|a>>3|b>>3.
	SHRQ $3, R8
	ORQ R13, R8
	MOVQ R13, BX
	SHRQ $2, BX
	ORQ BX, R8
	SHRQ $1, BX
	ORQ BX, R8

	// South in AX: d>>2|d>>4|d>>5|a>>5.
	SHRQ $2, AX
	MOVQ AX, BX
	SHRQ $2, BX
	ORQ BX, AX
	SHRQ $1, BX
	ORQ BX, AX
	SHRQ $5, R13
	ORQ R13, AX

	// Every neighbour dug, or found.
	ANDQ R9, AX
	ANDQ R8, AX
	SHRQ $4, R8
	ANDQ R8, AX
	BTQ $0, AX
	JCC found

	// No move left from p: the last entry takes its place.
	DECQ R10
	MOVQ R10, BX
	IMULQ width+8(FP), BX
	MOVL (DI)(BX*1), BX
	ANDQ mask+16(FP), BX
	MOVL (DI)(DX*1), CX
	MOVQ mask+16(FP), AX
	NOTQ AX
	ANDQ AX, CX
	ORQ BX, CX
	MOVL CX, (DI)(DX*1)
	JMP loop

found:
	MOVQ $0, status+80(FP)
	JMP out

empty:
	MOVQ $0, c+56(FP)
	MOVQ $1, status+80(FP)
	JMP out

rare:
	MOVQ $0, c+56(FP)
	MOVQ $2, status+80(FP)
	JMP out

more:
	MOVQ $0, c+56(FP)
	MOVQ $3, status+80(FP)

out:
	MOVQ R10, left+64(FP)
	MOVQ R11, after+72(FP)
	RET

// func topBits32AVX512(state uint64) (tops uint64)
//
// The top bits of the 32 draws after state, bit k for draw k: four
// vectors of eight lanes at once. SplitMix64's last step, z ^= z >> 31,
// leaves the top bit as it is, so it is left out.
TEXT ·topBits32AVX512(SB), NOSPLIT, $0-16
	MOVQ state+0(FP), AX
	LANES                   // Z0: draws 0-7's states
	VPADDQ Z4, Z0, Z9       // draws 8-15
	VPADDQ Z4, Z9, Z10      // draws 16-23
	VPADDQ Z4, Z10, Z11     // draws 24-31

	VPSRLQ $30, Z0, Z7
	VPSRLQ $30, Z9, Z12
	VPSRLQ $30, Z10, Z13
	VPSRLQ $30, Z11, Z14
	VPXORQ Z0, Z7, Z7
	VPXORQ Z9, Z12, Z12
	VPXORQ Z10, Z13, Z13
	VPXORQ Z11, Z14, Z14
	VPMULLQ Z5, Z7, Z7
	VPMULLQ Z5, Z12, Z12
	VPMULLQ Z5, Z13, Z13
	VPMULLQ Z5, Z14, Z14
	VPSRLQ $27, Z7, Z0
	VPSRLQ $27, Z12, Z9
	VPSRLQ $27, Z13, Z10
	VPSRLQ $27, Z14, Z11
	VPXORQ Z7, Z0, Z7
	VPXORQ Z12, Z9, Z12
	VPXORQ Z13, Z10, Z13
	VPXORQ Z14, Z11, Z14
	VPMULLQ Z6, Z7, Z7
	VPMULLQ Z6, Z12, Z12
	VPMULLQ Z6, Z13, Z13
	VPMULLQ Z6, Z14, Z14
	VPMOVQ2M Z7, K1
	VPMOVQ2M Z12, K2
	VPMOVQ2M Z13, K3
	VPMOVQ2M Z14, K4
	KMOVB K1, AX
	KMOVB K2, BX
	KMOVB K3, CX
	KMOVB K4, DX
	SHLQ $8, BX
	SHLQ $16, CX
	SHLQ $24, DX
	ORQ BX, AX
	ORQ CX, AX
	ORQ DX, AX
	VZEROUPPER
	MOVQ AX, tops+8(FP)
	RET

// The AVX2 draws. AVX2 has no 64-bit multiplication, so MUL64 builds the
// low half of x·m from three 32-bit ones: xlo·mlo + (xhi·mlo + xlo·mhi)<<32.
// It sets x to x·m for the multiplier's halves lo and hi (each in the low
// 32 bits of every lane), using t1 and t2.
#define MUL64(x, lo, hi, t1, t2) \
	VPSRLQ $32, x, t2; \
	VPMULUDQ lo, t2, t2; \
	VPMULUDQ hi, x, t1; \
	VPADDQ t1, t2, t2; \
	VPSLLQ $32, t2, t2; \
	VPMULUDQ lo, x, x; \
	VPADDQ t2, x, x

// MIX2 sets z to mix's first two steps of the states in s (the third,
// z ^= z >> 31, keeps the top bit), with the multipliers in Y3-Y6.
#define MIX2(s, z, t1, t2) \
	VPSRLQ $30, s, z; \
	VPXOR s, z, z; \
	MUL64(z, Y3, Y4, t1, t2); \
	VPSRLQ $27, z, t1; \
	VPXOR t1, z, z; \
	MUL64(z, Y5, Y6, t1, t2)

// gammas holds 1 to 4 times gamma, lane k's first state less state.
DATA gammas<>+0(SB)/8, $0x9e3779b97f4a7c15
DATA gammas<>+8(SB)/8, $0x3c6ef372fe94f82a
DATA gammas<>+16(SB)/8, $0xdaa66d2c7ddf743f
DATA gammas<>+24(SB)/8, $0x78dde6e5fd29f054
GLOBL gammas<>(SB), RODATA|NOPTR, $32

// mixHalves holds mix's multipliers in 32-bit halves: mixMul1's low and
// high, then mixMul2's; and 4·gamma.
DATA mixHalves<>+0(SB)/8, $0x1ce4e5b9
DATA mixHalves<>+8(SB)/8, $0xbf58476d
DATA mixHalves<>+16(SB)/8, $0x133111eb
DATA mixHalves<>+24(SB)/8, $0x94d049bb
DATA mixHalves<>+32(SB)/8, $0x78dde6e5fd29f054
GLOBL mixHalves<>(SB), RODATA|NOPTR, $40

// LANES2 sets Y0 to the states of the four draws after the state in AX,
// Y1 to those of the four after them, Y2 to 8·gamma, and Y3-Y6 to mix's
// multipliers' halves, using Y7.
#define LANES2 \
	MOVQ AX, X0; \
	VPBROADCASTQ X0, Y0; \
	VPADDQ gammas<>(SB), Y0, Y0; \
	VPBROADCASTQ mixHalves<>+32(SB), Y7; \
	VPADDQ Y7, Y0, Y1; \
	VPADDQ Y7, Y7, Y2; \
	VPBROADCASTQ mixHalves<>+0(SB), Y3; \
	VPBROADCASTQ mixHalves<>+8(SB), Y4; \
	VPBROADCASTQ mixHalves<>+16(SB), Y5; \
	VPBROADCASTQ mixHalves<>+24(SB), Y6

// func fillDrawsAVX2(state uint64, d *[aheadHalf]uint64) (tops, after uint64)
//
// fillDraws eight draws at a time, on two vectors of four lanes;
// VMOVMSKPD gathers the top bits.
TEXT ·fillDrawsAVX2(SB), NOSPLIT, $0-32
	MOVQ state+0(FP), AX
	MOVQ d+8(FP), DI
	LANES2
	XORQ R8, R8             // tops
	XORQ CX, CX             // the first draw's bit in tops: 0, 8, … 56

loop2:
	MIX2(Y0, Y11, Y7, Y8)
	MIX2(Y1, Y12, Y9, Y10)
	VPSRLQ $31, Y11, Y7
	VPSRLQ $31, Y12, Y9
	VPXOR Y7, Y11, Y11
	VPXOR Y9, Y12, Y12
	VMOVDQU Y11, (DI)
	VMOVDQU Y12, 32(DI)
	VMOVMSKPD Y11, DX
	VMOVMSKPD Y12, BX
	SHLQ $4, BX
	ORQ BX, DX
	SHLQ CX, DX
	ORQ DX, R8
	VPADDQ Y2, Y0, Y0
	VPADDQ Y2, Y1, Y1
	ADDQ $64, DI
	ADDQ $8, CX
	CMPQ CX, $64
	JLT loop2

	VZEROUPPER
	MOVQ $0x9e3779b97f4a7c15, BX
	SHLQ $6, BX
	ADDQ BX, AX
	MOVQ R8, tops+16(FP)
	MOVQ AX, after+24(FP)
	RET

// func topBits32AVX2(state uint64) (tops uint64)
//
// The top bits of the 32 draws after state, bit k for draw k, eight at a
// time.
TEXT ·topBits32AVX2(SB), NOSPLIT, $0-16
	MOVQ state+0(FP), AX
	LANES2
	XORQ R8, R8             // tops
	XORQ CX, CX             // the first draw's bit in tops: 0, 8, 16, 24

tops2:
	MIX2(Y0, Y11, Y7, Y8)
	MIX2(Y1, Y12, Y9, Y10)
	VMOVMSKPD Y11, DX
	VMOVMSKPD Y12, BX
	SHLQ $4, BX
	ORQ BX, DX
	SHLQ CX, DX
	ORQ DX, R8
	VPADDQ Y2, Y0, Y0
	VPADDQ Y2, Y1, Y1
	ADDQ $8, CX
	CMPQ CX, $32
	JLT tops2

	VZEROUPPER
	MOVQ R8, tops+8(FP)
	RET
