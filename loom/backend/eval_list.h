// A family's evals are listed once, in its contract header (backend/<family>.h), as an
// X-macro of rows X(Fn, name, arity): the eval's signature type (written once above the
// list, with its documentation), its name in cpu_backend and gpu_backend, and its number of
// parameters. The list declares both namespaces' evals here, and, in a build without CUDA,
// backend/no_cuda/evals.cpp defines every GPU eval of every list as a stub from one template.
#pragma once

/// One eval of a list, declared as a function of its signature type.
#define LOOM_DECLARE_EVAL(Fn, name, arity) Fn name;

/// Declares the evals of `LIST` in cpu_backend (backend/cpu/) and gpu_backend (backend/cuda/).
#define LOOM_DECLARE_EVALS(LIST)                \
  namespace cpu_backend {                       \
  LIST(LOOM_DECLARE_EVAL)                       \
  }                                             \
  namespace gpu_backend {                       \
  LIST(LOOM_DECLARE_EVAL)                       \
  }
