// Included before every user program NVRTC compiles (SourceModule, RawModule, RawKernel):
// what CUDA C sees under nvcc but not under NVRTC. nvcc's host pass includes glibc's
// sys/types.h, whose short unsigned names PyCUDA's and CuPy's examples use; the emulator's
// header (loom_cuda_emu.h) declares the same ones.
#pragma once
typedef unsigned short ushort;
typedef unsigned int uint;
typedef unsigned long ulong;
