// The link name of a BLAS/LAPACK routine: the scipy-openblas wheel (NumPy's OpenBLAS, which
// CMake prefers) exports every routine with a scipy_ prefix, which CMake writes into the
// generated loom_blas_prefix.h as LOOM_BLAS_PREFIX; the declarations keep the plain names and bind them to the prefixed
// symbols with an asm label, so no call site changes.
#pragma once

#include "loom_blas_prefix.h"
#define LOOM_BLAS_SYMBOL(name) __asm__(LOOM_BLAS_PREFIX #name)
